package io.erasure.recovery.reapply;

import io.erasure.model.cutoff.CutoffTimestamp;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/** The history of reapplications in PostgreSQL (schema {@code recovery}): who asked, what, and what was published. */
public class ReapplicationStore {

    public enum Status {
        RUNNING,
        DRY_RUN,
        PUBLISHED,
        FAILED
    }

    /**
     * One original cut-off and effect of a reapplication: how many keys are (in a dry-run: would be) erased again at
     * it and the tasks that do it; {@code clearColumns} are the columns those tasks clear (the keys' latest erasure was
     * an anonymisation; their rows are kept), empty when they delete whole rows. {@code erasedKeys} only in the answer
     * to the request itself, never stored.
     */
    public record CutoffGroupView(
            long cutoffMicros,
            Instant cutoff,
            List<String> clearColumns,
            String specDigest,
            long keys,
            List<String> taskIds,
            List<Map<String, Object>> erasedKeys) {}

    /** A key left out of a reapplication and why; only in the answer to the request itself, never stored. */
    public record SkippedKeyView(Map<String, Object> key, String recordId, String reason) {}

    /**
     * @param skippedKeys    keys whose latest erasure could not be re-applied (an anonymisation whose cleared columns
     *                       could not be read: the row it kept is never deleted instead) or must not be (a recovery
     *                       restored the key after that erasure: "recovered after erasure")
     * @param skippedReasons how many of them for each reason
     * @param skipped        the skipped keys, only in the answer to the request itself
     */
    public record ReapplicationView(
            UUID id,
            String requestId,
            String clientRequestId,
            String requestedBy,
            String reason,
            String dataset,
            String snapshot,
            Long snapshotCutoffMicros,
            Instant from,
            Instant to,
            boolean dryRun,
            Status status,
            Instant requestedAt,
            Instant completedAt,
            long recordsRead,
            long purgedRecords,
            long keys,
            long tasks,
            long skippedKeys,
            Map<String, Long> skippedReasons,
            String warning,
            String failure,
            List<CutoffGroupView> groups,
            List<SkippedKeyView> skipped) {

        ReapplicationView withGroups(List<CutoffGroupView> replaced) {
            return new ReapplicationView(
                    id,
                    requestId,
                    clientRequestId,
                    requestedBy,
                    reason,
                    dataset,
                    snapshot,
                    snapshotCutoffMicros,
                    from,
                    to,
                    dryRun,
                    status,
                    requestedAt,
                    completedAt,
                    recordsRead,
                    purgedRecords,
                    keys,
                    tasks,
                    skippedKeys,
                    skippedReasons,
                    warning,
                    failure,
                    replaced,
                    skipped);
        }

        ReapplicationView withSkipped(List<SkippedKeyView> replaced) {
            return new ReapplicationView(
                    id,
                    requestId,
                    clientRequestId,
                    requestedBy,
                    reason,
                    dataset,
                    snapshot,
                    snapshotCutoffMicros,
                    from,
                    to,
                    dryRun,
                    status,
                    requestedAt,
                    completedAt,
                    recordsRead,
                    purgedRecords,
                    keys,
                    tasks,
                    skippedKeys,
                    skippedReasons,
                    warning,
                    failure,
                    groups,
                    replaced);
        }
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final JsonMapper json;

    public ReapplicationStore(JdbcTemplate jdbc, PlatformTransactionManager transactions, JsonMapper json) {
        this.jdbc = jdbc;
        this.transactions = new TransactionTemplate(transactions);
        this.json = json;
    }

    UUID started(
            String requestId,
            String clientRequestId,
            String requestedBy,
            ReapplicationRequest request,
            ErasureWindow window,
            Instant now) {
        UUID id = UUID.randomUUID();
        jdbc.update(
                "INSERT INTO reapplications (id, request_id, client_request_id, requested_by, reason, dataset,"
                        + " dataset_spec, snapshot, snapshot_cutoff_micros, window_from, window_to, dry_run, warning,"
                        + " requested_at) VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?)",
                id,
                requestId,
                clientRequestId,
                requestedBy,
                request.reason(),
                request.dataset(),
                request.spec() == null ? null : json.writeValueAsString(request.spec()),
                window.snapshot(),
                window.snapshotCutoffMicros(),
                Timestamp.from(window.from()),
                Timestamp.from(window.to()),
                request.dryRun(),
                window.warning(),
                Timestamp.from(now));
        return id;
    }

    /**
     * The window of the first reapplication with this origin id that did not fail: a retry reads the same erasures
     * (a default window would otherwise end at a later "now"), so it cuts the same tasks.
     */
    Optional<ErasureWindow> earlierWindow(String requestId) {
        return jdbc
                .query(
                        "SELECT window_from, window_to, snapshot, snapshot_cutoff_micros, warning FROM reapplications"
                                + " WHERE request_id = ? AND status <> 'FAILED' ORDER BY requested_at, id LIMIT 1",
                        (rs, n) -> new ErasureWindow(
                                instant(rs, "window_from"),
                                instant(rs, "window_to"),
                                rs.getString("snapshot"),
                                (Long) rs.getObject("snapshot_cutoff_micros"),
                                rs.getString("warning")),
                        requestId)
                .stream()
                .findFirst();
    }

    void finished(UUID id, ReapplicationPlan plan, ErasureLogScan.Erasures erasures, boolean dryRun, Instant now) {
        transactions.executeWithoutResult(status -> {
            jdbc.batchUpdate(
                    "INSERT INTO reapplication_groups (reapplication_id, cutoff_micros, clear_columns, spec_digest,"
                            + " keys, task_ids) VALUES (?, ?, ?, ?, ?, ?)",
                    plan.groups().stream()
                            .map(group -> new Object[] {
                                id,
                                group.cutoffMicros(),
                                group.clearColumns().toArray(String[]::new),
                                group.specDigest(),
                                group.keys().size(),
                                group.tasks().stream()
                                        .map(task -> task.taskId())
                                        .toArray(String[]::new)
                            })
                            .toList());
            Map<String, Long> reasons = new TreeMap<>(erasures.skipped().stream()
                    .collect(Collectors.groupingBy(ErasureLogScan.Skipped::reason, Collectors.counting())));
            jdbc.update(
                    "UPDATE reapplications SET status = ?, completed_at = ?, records_read = ?, purged_records = ?,"
                            + " keys_total = ?, tasks_total = ?, skipped_keys = ?, skipped_reasons = ?::jsonb"
                            + " WHERE id = ?",
                    (dryRun ? Status.DRY_RUN : Status.PUBLISHED).name(),
                    Timestamp.from(now),
                    erasures.recordsRead(),
                    erasures.purged(),
                    erasures.keys(),
                    plan.tasks().size(),
                    erasures.skipped().size(),
                    json.writeValueAsString(reasons),
                    id);
        });
    }

    void failed(UUID id, String failure, Instant now) {
        jdbc.update(
                "UPDATE reapplications SET status = 'FAILED', completed_at = ?, failure = ? WHERE id = ?",
                Timestamp.from(now),
                failure,
                id);
    }

    public Optional<ReapplicationView> find(UUID id) {
        return jdbc.query("SELECT * FROM reapplications WHERE id = ?", this::view, id).stream()
                .findFirst()
                .map(view -> view.withGroups(groups(id)));
    }

    /** The history, newest first (groups left out: read one reapplication for them). */
    public List<ReapplicationView> list(int limit, int offset) {
        return jdbc.query(
                "SELECT * FROM reapplications ORDER BY requested_at DESC, id LIMIT ? OFFSET ?",
                this::view,
                limit,
                offset);
    }

    private List<CutoffGroupView> groups(UUID id) {
        // deletes before anonymisations at one cut-off, as in the plan
        return jdbc.query(
                "SELECT cutoff_micros, clear_columns, spec_digest, keys, task_ids FROM reapplication_groups"
                        + " WHERE reapplication_id = ? ORDER BY cutoff_micros, cardinality(clear_columns),"
                        + " array_to_string(clear_columns, ','), spec_digest",
                (rs, n) -> {
                    long cutoff = rs.getLong("cutoff_micros");
                    return new CutoffGroupView(
                            cutoff,
                            CutoffTimestamp.fromMicros(cutoff),
                            strings(rs.getArray("clear_columns")),
                            rs.getString("spec_digest"),
                            rs.getLong("keys"),
                            strings(rs.getArray("task_ids")),
                            null);
                },
                id);
    }

    private ReapplicationView view(ResultSet rs, int row) throws SQLException {
        return new ReapplicationView(
                rs.getObject("id", UUID.class),
                rs.getString("request_id"),
                rs.getString("client_request_id"),
                rs.getString("requested_by"),
                rs.getString("reason"),
                rs.getString("dataset"),
                rs.getString("snapshot"),
                (Long) rs.getObject("snapshot_cutoff_micros"),
                instant(rs, "window_from"),
                instant(rs, "window_to"),
                rs.getBoolean("dry_run"),
                Status.valueOf(rs.getString("status")),
                instant(rs, "requested_at"),
                instant(rs, "completed_at"),
                rs.getLong("records_read"),
                rs.getLong("purged_records"),
                rs.getLong("keys_total"),
                rs.getLong("tasks_total"),
                rs.getLong("skipped_keys"),
                reasons(rs.getString("skipped_reasons")),
                rs.getString("warning"),
                rs.getString("failure"),
                List.of(),
                null);
    }

    private Map<String, Long> reasons(String document) {
        Map<String, Long> reasons = new TreeMap<>();
        if (document != null) {
            json.readTree(document)
                    .properties()
                    .forEach(entry ->
                            reasons.put(entry.getKey(), entry.getValue().asLong()));
        }
        return reasons;
    }

    private static List<String> strings(Array array) throws SQLException {
        return List.of((String[]) array.getArray());
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp timestamp = rs.getTimestamp(column);
        return timestamp == null ? null : timestamp.toInstant();
    }
}
