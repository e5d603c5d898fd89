package io.erasure.deletionlog.purge;

import io.erasure.deletionlog.client.DeletionLog;
import io.erasure.deletionlog.client.LogPurges;
import io.erasure.model.check.Require;
import io.erasure.model.key.CanonicalKey;
import io.erasure.support.access.Caller;
import io.erasure.support.access.CallerResolver;
import io.erasure.support.access.Role;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * "Purge now" (OPERATOR): a legal erasure of a key's or a whole dataset's records from the log, before
 * their TTL. Who and when are kept; afterwards the records read as purged.
 */
@RestController
@RequestMapping("/api/log/{dataset}")
public class PurgeController {

    private static final Logger log = LoggerFactory.getLogger(PurgeController.class);

    private final LogPurges purges;
    private final CallerResolver callers;

    public PurgeController(DeletionLog deletionLog, CallerResolver callers) {
        this.purges = deletionLog.purges();
        this.callers = callers;
    }

    /** Without {@code key}: the whole dataset's records. */
    public record PurgeRequest(Map<String, Object> key, String reason) {
        public PurgeRequest {
            Require.nonBlank("reason (why the log must be purged now, for the record)", reason);
            key = key == null ? null : CanonicalKey.copyOf("key", key);
        }
    }

    @PostMapping("/purge")
    public LogPurges.Purge purge(@PathVariable String dataset, @RequestBody PurgeRequest request) {
        Caller caller = callers.current();
        caller.requireAny("purging the deletion log", Role.OPERATOR);
        LogPurges.Purge purge = request.key() == null
                ? purges.purgeDataset(dataset, caller.name(), request.reason())
                : purges.purgeKey(dataset, request.key(), caller.name(), request.reason());
        log.warn(
                "deletion log purged: {} of dataset {} by {} ({})",
                purge.scope(),
                dataset,
                caller.name(),
                request.reason());
        return purge;
    }

    @GetMapping("/purges")
    public List<LogPurges.Purge> history(@PathVariable String dataset) {
        return purges.history(dataset);
    }
}
