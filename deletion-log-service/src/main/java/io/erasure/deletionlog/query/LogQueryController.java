package io.erasure.deletionlog.query;

import io.erasure.deletionlog.client.DeletionLog;
import io.erasure.deletionlog.client.FrozenSpec;
import io.erasure.deletionlog.client.FrozenSpecs;
import io.erasure.deletionlog.client.LogPage;
import io.erasure.deletionlog.client.LogReader;
import io.erasure.deletionlog.client.LoggedRecord;
import io.erasure.deletionlog.ingest.IngestionLag;
import io.erasure.model.key.CanonicalKey;
import io.erasure.support.access.CallerResolver;
import io.erasure.support.access.Role;
import io.erasure.support.kafka.ConsumerGroupLag;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Queries on the log, for any authenticated role. Full rows (the deleted columns) only for the RECOVERY
 * role; everyone else gets the metadata and the primary key. Lists are paged: pass {@code nextCursor} back as
 * {@code cursor}.
 */
@RestController
@RequestMapping("/api")
public class LogQueryController {

    private final LogReader reader;
    private final FrozenSpecs specs;
    private final IngestionLag lag;
    private final CallerResolver callers;
    private final JsonMapper json;

    public LogQueryController(DeletionLog log, IngestionLag lag, CallerResolver callers, JsonMapper json) {
        this.reader = log.reader();
        this.specs = log.specs();
        this.lag = lag;
        this.callers = callers;
        this.json = json;
    }

    /** Was this key deleted, when, by which run? {@code key} is the primary key as JSON, e.g. {@code {"id":42}}. */
    @GetMapping("/log/{dataset}/keys")
    public KeyHistoryView key(@PathVariable String dataset, @RequestParam String key) {
        Map<String, Object> primaryKey;
        try {
            primaryKey = CanonicalKey.copyOf("key", json.readValue(key, new TypeReference<Map<String, Object>>() {}));
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "key must be the primary key as a JSON object, e.g. {\"id\":42}: " + e.getOriginalMessage());
        }
        return KeyHistoryView.of(reader.byKey(dataset, primaryKey, fullRows()));
    }

    /** Records of a dataset deleted in [from, to). */
    @GetMapping("/log/{dataset}/records")
    public LogPage window(
            @PathVariable String dataset,
            @RequestParam Instant from,
            @RequestParam Instant to,
            @RequestParam(defaultValue = "100") int limit,
            @RequestParam(required = false) String cursor) {
        return reader.window(dataset, from, to, limit, cursor, fullRows());
    }

    /** Records of a run (or a forward-deletion request id). */
    @GetMapping("/log/runs/{runId}/records")
    public LogPage run(
            @PathVariable String runId,
            @RequestParam(defaultValue = "100") int limit,
            @RequestParam(required = false) String cursor) {
        return reader.run(runId, limit, cursor, fullRows());
    }

    /**
     * The specs a run (or a forward-deletion request) deleted under, one per dataset (its copies' views included), with
     * their digests: what recoveries and reapplications of its records act under. No row data.
     */
    @GetMapping("/log/runs/{runId}/specs")
    public List<FrozenSpec> specs(@PathVariable String runId) {
        return specs.ofOrigin(runId);
    }

    /** Records on the topic not yet stored: the deletion service pauses while this is high. */
    @GetMapping("/ingestion/lag")
    public ConsumerGroupLag.Lag lag() {
        return lag.current();
    }

    private boolean fullRows() {
        return callers.current().has(Role.RECOVERY);
    }

    public record KeyHistoryView(
            String dataset,
            Map<String, Object> key,
            boolean deleted,
            boolean purged,
            Instant purgedAt,
            String purgedBy,
            List<LoggedRecord> records) {
        static KeyHistoryView of(LogReader.KeyHistory history) {
            return new KeyHistoryView(
                    history.dataset(),
                    history.key(),
                    !history.records().isEmpty() || history.purged(),
                    history.purged(),
                    history.purgedAt(),
                    history.purgedBy(),
                    history.records());
        }
    }
}
