package io.erasure.recovery.restore;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.recovery.RecoveryScope;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Recovery requests, their progress and per-record outcomes in PostgreSQL (schema {@code recovery}). */
@Component
public class RecoveryStore {

    public enum Status {
        PENDING,
        RUNNING,
        COMPLETED,
        FAILED
    }

    /**
     * A request as the API shows it: who asked, what, and how far it got; {@code path} is how its rows are (in a
     * dry-run: would be) written back, null until it has started; {@code pathReason} why a recovery large enough for
     * the bulk path restores online (the bulk path cannot run here), else null.
     */
    public record RequestView(
            UUID id,
            String requestedBy,
            String reason,
            String scopeKind,
            JsonNode scope,
            String dataset,
            boolean dryRun,
            Status status,
            RestorePath path,
            String pathReason,
            Instant requestedAt,
            Instant startedAt,
            Instant completedAt,
            long recordsTotal,
            long recordsDone,
            long restored,
            long conflicts,
            long expired,
            long failed,
            long purged,
            long notInLog,
            String failure) {}

    private final JdbcTemplate jdbc;
    private final JsonMapper json;

    public RecoveryStore(JdbcTemplate jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /**
     * @param dataset the scope's dataset (by run: the run's, when known)
     * @param spec    the spec the caller sent, checked against the frozen one, kept for the record; null when omitted
     */
    public UUID create(
            String requestedBy,
            String reason,
            RecoveryScope scope,
            String dataset,
            DatasetSpec spec,
            boolean dryRun,
            Instant now) {
        UUID id = UUID.randomUUID();
        String kind = scope instanceof RecoveryScope.ByKeys
                ? "KEYS"
                : scope instanceof RecoveryScope.ByTimeWindow ? "TIME_WINDOW" : "RUN";
        jdbc.update(
                "INSERT INTO recovery_requests (id, requested_by, reason, scope_kind, scope, dataset, dataset_spec,"
                        + " dry_run, requested_at) VALUES (?, ?, ?, ?, ?::jsonb, ?, ?::jsonb, ?, ?)",
                id,
                requestedBy,
                reason,
                kind,
                json.writerFor(RecoveryScope.class).writeValueAsString(scope),
                dataset,
                spec == null ? null : json.writeValueAsString(spec),
                dryRun,
                Timestamp.from(now));
        return id;
    }

    public RecoveryScope scope(UUID id) {
        return json.readValue(
                jdbc.queryForObject("SELECT scope::text FROM recovery_requests WHERE id = ?", String.class, id),
                RecoveryScope.class);
    }

    /** @param pathReason why the recovery restores online though its size chose the bulk path; null otherwise */
    public void started(UUID id, String dataset, long total, RestorePath path, String pathReason, Instant now) {
        jdbc.update(
                "UPDATE recovery_requests SET status = 'RUNNING', dataset = ?, started_at = ?, records_total = ?,"
                        + " path = ?, path_reason = ? WHERE id = ?",
                dataset,
                Timestamp.from(now),
                total,
                path.name(),
                pathReason,
                id);
    }

    /**
     * Sets the request's total to what it acted on, where that differs from the count it {@link #started} with (the
     * log changed between the count and the read).
     */
    public void counted(UUID id, long total) {
        jdbc.update("UPDATE recovery_requests SET records_total = ? WHERE id = ?", total, id);
    }

    /** Stores a batch's outcomes and adds them to the request's counters, in one transaction-free idempotent step. */
    public void recorded(UUID id, List<RecoveryItem> items) {
        jdbc.batchUpdate(
                "INSERT INTO recovery_outcomes (request_id, record_id, primary_key, outcome, detail, deleted_at,"
                        + " run_id) VALUES (?, ?, ?::jsonb, ?, ?, ?, ?) ON CONFLICT (request_id, record_id) DO NOTHING",
                items.stream()
                        .map(item -> new Object[] {
                            id,
                            item.recordId(),
                            item.primaryKey() == null ? null : json.writeValueAsString(item.primaryKey()),
                            item.outcome().name(),
                            item.detail(),
                            item.deletedAt() == null ? null : Timestamp.from(item.deletedAt()),
                            item.runId()
                        })
                        .toList());
        Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
        items.forEach(item -> counts.merge(item.outcome(), 1L, Long::sum));
        jdbc.update(
                "UPDATE recovery_requests SET records_done = records_done + ?, rows_restored = rows_restored + ?,"
                        + " conflicts = conflicts + ?, expired = expired + ?, failed = failed + ?, purged = purged + ?,"
                        + " not_in_log = not_in_log + ? WHERE id = ?",
                items.size(),
                count(counts, Outcome.RESTORED) + count(counts, Outcome.RESTORABLE),
                count(counts, Outcome.NEWER_DATA_KEPT) + count(counts, Outcome.CONFLICT),
                count(counts, Outcome.EXPIRED),
                count(counts, Outcome.FAILED),
                count(counts, Outcome.PURGED),
                count(counts, Outcome.NOT_IN_LOG),
                id);
    }

    /**
     * Which of {@code recordIds} a recovery restored (outcome RESTORED; a dry-run never restores): their keys were
     * brought back on purpose after that erasure.
     */
    public Set<String> restoredRecords(Collection<String> recordIds) {
        Set<String> restored = new HashSet<>();
        List<String> ids = List.copyOf(recordIds);
        for (int from = 0; from < ids.size(); from += 1_000) {
            String[] part =
                    ids.subList(from, Math.min(ids.size(), from + 1_000)).toArray(String[]::new);
            restored.addAll(jdbc.queryForList(
                    "SELECT DISTINCT record_id FROM recovery_outcomes WHERE outcome = 'RESTORED'"
                            + " AND record_id = ANY (?)",
                    String.class,
                    (Object) part));
        }
        return restored;
    }

    public void completed(UUID id, Instant now) {
        jdbc.update(
                "UPDATE recovery_requests SET status = 'COMPLETED', completed_at = ? WHERE id = ?",
                Timestamp.from(now),
                id);
    }

    public void failed(UUID id, String failure, Instant now) {
        jdbc.update(
                "UPDATE recovery_requests SET status = 'FAILED', completed_at = ?, failure = ? WHERE id = ?",
                Timestamp.from(now),
                failure,
                id);
    }

    /**
     * Marks the requests this instance runs (or has queued) as alive. The database's clock, not the instance's: the
     * sweep compares heartbeats written by every instance ({@link #failAbandoned}).
     */
    public void heartbeat(Collection<UUID> ids) {
        if (!ids.isEmpty()) {
            jdbc.update(
                    "UPDATE recovery_requests SET heartbeat_at = now() WHERE id = ANY (?)"
                            + " AND status IN ('PENDING', 'RUNNING')",
                    (Object) ids.toArray(UUID[]::new));
        }
    }

    /**
     * Fails every unfinished request (of any instance) not heard of for {@code staleFor} by the database's clock: its
     * service died under it. Returns how many.
     */
    public int failAbandoned(Duration staleFor, String failure) {
        return jdbc.update(
                "UPDATE recovery_requests SET status = 'FAILED', completed_at = now(), failure = ?"
                        + " WHERE status IN ('PENDING', 'RUNNING')"
                        + " AND coalesce(heartbeat_at, requested_at) < now() - make_interval(secs => ?)",
                failure,
                staleFor.toMillis() / 1000.0);
    }

    public Optional<RequestView> find(UUID id) {
        return jdbc.query("SELECT * FROM recovery_requests WHERE id = ?", this::view, id).stream()
                .findFirst();
    }

    /** The history, newest first. */
    public List<RequestView> list(int limit, int offset) {
        return jdbc.query(
                "SELECT * FROM recovery_requests ORDER BY requested_at DESC, id LIMIT ? OFFSET ?",
                this::view,
                limit,
                offset);
    }

    public List<RecoveryItem> outcomes(UUID id, int limit, int offset) {
        return jdbc.query(
                "SELECT record_id, primary_key::text AS pk, outcome, detail, deleted_at, run_id FROM recovery_outcomes"
                        + " WHERE request_id = ? ORDER BY record_id LIMIT ? OFFSET ?",
                (rs, n) -> new RecoveryItem(
                        rs.getString("record_id"),
                        rs.getString("pk") == null
                                ? null
                                : json.readValue(rs.getString("pk"), new TypeReference<Map<String, Object>>() {}),
                        Outcome.valueOf(rs.getString("outcome")),
                        rs.getString("detail"),
                        instant(rs, "deleted_at"),
                        rs.getString("run_id")),
                id,
                limit,
                offset);
    }

    private RequestView view(ResultSet rs, int row) throws SQLException {
        return new RequestView(
                rs.getObject("id", UUID.class),
                rs.getString("requested_by"),
                rs.getString("reason"),
                rs.getString("scope_kind"),
                json.readTree(rs.getString("scope")),
                rs.getString("dataset"),
                rs.getBoolean("dry_run"),
                Status.valueOf(rs.getString("status")),
                rs.getString("path") == null ? null : RestorePath.valueOf(rs.getString("path")),
                rs.getString("path_reason"),
                instant(rs, "requested_at"),
                instant(rs, "started_at"),
                instant(rs, "completed_at"),
                rs.getLong("records_total"),
                rs.getLong("records_done"),
                rs.getLong("rows_restored"),
                rs.getLong("conflicts"),
                rs.getLong("expired"),
                rs.getLong("failed"),
                rs.getLong("purged"),
                rs.getLong("not_in_log"),
                rs.getString("failure"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp timestamp = rs.getTimestamp(column);
        return timestamp == null ? null : timestamp.toInstant();
    }

    private static long count(Map<Outcome, Long> counts, Outcome outcome) {
        return counts.getOrDefault(outcome, 0L);
    }
}
