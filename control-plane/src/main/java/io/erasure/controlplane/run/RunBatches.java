package io.erasure.controlplane.run;

import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchFailed;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The batch results of runs: each batch counted once by its id, whatever the delivery order or count,
 * and the batches that failed for good. A run's own batches and its copies' batches are kept apart by
 * {@code copy_of}.
 */
@Repository
public class RunBatches {

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public RunBatches(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Counts a batch result once; returns false if this batch was already counted. */
    public boolean addCompleted(String runId, BatchCompleted batch) {
        var counts = batch.counts();
        return jdbc.update("""
                        INSERT INTO run_batches (run_id, batch_id, task_id, dataset, copy_of, copy_tasks, keys_digest, deleted,
                                                 skipped_newer, already_absent, failed, read_back, still_present, received_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, batch_id) DO NOTHING""",
                runId, batch.batchId(), batch.taskId(), batch.dataset(), batch.copyOf(), batch.copyTasks(),
                batch.keysDigest(), counts.deleted(), counts.skippedNewer(), counts.alreadyAbsent(), counts.failed(),
                batch.readBack().name(), batch.stillPresent(), Timestamp.from(clock.instant())) == 1;
    }

    /** Records a batch that failed for good, once; {@code copyOf} names the source when it is a copy's batch. */
    public boolean addFailure(String runId, BatchFailed failed, String copyOf) {
        return jdbc.update("""
                        INSERT INTO run_batch_failures (run_id, batch_id, task_id, dataset, copy_of, reason, received_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, batch_id) DO NOTHING""",
                runId, failed.batchId(), failed.taskId(), failed.dataset(), copyOf, failed.reason(),
                Timestamp.from(clock.instant())) == 1;
    }

    /**
     * Sums per dataset: the run's own batches under {@code runDataset} (batches counted before copies were
     * recorded have no dataset), each copy's under its view name.
     */
    public Map<String, BatchTotals> totalsByDataset(String runId, String runDataset) {
        Map<String, BatchTotals> totals = new LinkedHashMap<>();
        jdbc.query("""
                        SELECT CASE WHEN copy_of IS NULL THEN ? ELSE dataset END AS of_dataset, count(*) AS batches,
                               sum(deleted) AS deleted, sum(skipped_newer) AS skipped_newer,
                               sum(already_absent) AS already_absent, sum(failed) AS failed,
                               sum(still_present) AS still_present,
                               count(*) FILTER (WHERE read_back = 'CLEAN') AS clean,
                               count(*) FILTER (WHERE read_back = 'ROWS_REMAINING') AS rows_remaining,
                               count(*) FILTER (WHERE read_back = 'NOT_SUPPORTED') AS not_supported,
                               min(received_at) AS first_at, max(received_at) AS last_at
                        FROM run_batches WHERE run_id = ? GROUP BY 1 ORDER BY 1""",
                rs -> {
                    totals.put(rs.getString("of_dataset"), totals(rs));
                }, runDataset, runId);
        return totals;
    }

    public List<BatchFailure> failures(String runId) {
        return jdbc.query("""
                        SELECT batch_id, task_id, dataset, copy_of, reason, received_at FROM run_batch_failures
                        WHERE run_id = ? ORDER BY received_at, batch_id""",
                (rs, i) -> new BatchFailure(rs.getString("batch_id"), rs.getString("task_id"), rs.getString("dataset"),
                        rs.getString("copy_of"), rs.getString("reason"), rs.getTimestamp("received_at").toInstant().toString()),
                runId);
    }

    /** The {@code keysDigest}s the batches reported, per dataset as in {@link #totalsByDataset}. */
    public Map<String, List<String>> keysDigests(String runId, String runDataset) {
        Map<String, List<String>> digests = new LinkedHashMap<>();
        jdbc.query("""
                        SELECT CASE WHEN copy_of IS NULL THEN ? ELSE dataset END AS of_dataset, keys_digest
                        FROM run_batches WHERE run_id = ? AND keys_digest IS NOT NULL ORDER BY 1, 2""",
                rs -> {
                    digests.computeIfAbsent(rs.getString(1), d -> new ArrayList<>()).add(rs.getString(2));
                }, runDataset, runId);
        return digests;
    }

    private static BatchTotals totals(ResultSet rs) throws SQLException {
        return new BatchTotals(rs.getLong("batches"), rs.getLong("deleted"), rs.getLong("skipped_newer"),
                rs.getLong("already_absent"), rs.getLong("failed"), rs.getLong("still_present"),
                new BatchTotals.ReadBacks(rs.getLong("clean"), rs.getLong("rows_remaining"), rs.getLong("not_supported")),
                rs.getTimestamp("first_at").toInstant().toString(), rs.getTimestamp("last_at").toInstant().toString());
    }
}
