package io.erasure.controlplane.run;

import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.ReadBackResult;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The batch results of runs: each batch counted once by its id, whatever the delivery order or count,
 * and the batches that failed for good. A run's own batches and its copies' batches are kept apart by
 * {@code copy_of}. A batch counted for the first time is added to its run's running totals
 * ({@code run_batch_totals}, and the counters on {@code runs}) in the same transaction, so recording one costs
 * the same however many batches the run already has.
 */
@Repository
public class RunBatches {

    private static final String COUNT_BATCH = """
            UPDATE runs SET batches_completed = batches_completed + 1,
                            copy_tasks_published = copy_tasks_published + ? WHERE id = ? RETURNING\s""";

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public RunBatches(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * Counts a batch result once and adds it to the run's running totals in the same statement sequence (the
     * caller's transaction); returns the run's counters as this batch left them, or nothing, adding nothing, if this
     * batch was already counted.
     *
     * @param runDataset the run's own dataset, under which its own batches are totalled
     */
    public Optional<RunRecord.BatchCounters> addCompleted(String runId, String runDataset, BatchCompleted batch) {
        var counts = batch.counts();
        Timestamp now = Timestamp.from(clock.instant());
        boolean added = jdbc.update(
                        """
                        INSERT INTO run_batches (run_id, batch_id, task_id, dataset, copy_of, copy_tasks, keys_digest,
                                                 deleted, skipped_newer, already_absent, failed, read_back,
                                                 still_present, received_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, batch_id) DO NOTHING""",
                        runId,
                        batch.batchId(),
                        batch.taskId(),
                        batch.dataset(),
                        batch.copyOf(),
                        batch.copyTasks(),
                        batch.keysDigest(),
                        counts.deleted(),
                        counts.skippedNewer(),
                        counts.alreadyAbsent(),
                        counts.failed(),
                        batch.readBack().name(),
                        batch.stillPresent(),
                        now)
                == 1;
        if (!added) {
            return Optional.empty();
        }
        ReadBackResult readBack = batch.readBack();
        jdbc.update(
                """
                        INSERT INTO run_batch_totals (run_id, dataset, batches, deleted, skipped_newer, already_absent,
                                                      failed, still_present, clean_batches, rows_remaining_batches,
                                                      not_supported_batches, first_at, last_at)
                        VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (run_id, dataset) DO UPDATE SET
                            batches = run_batch_totals.batches + 1,
                            deleted = run_batch_totals.deleted + EXCLUDED.deleted,
                            skipped_newer = run_batch_totals.skipped_newer + EXCLUDED.skipped_newer,
                            already_absent = run_batch_totals.already_absent + EXCLUDED.already_absent,
                            failed = run_batch_totals.failed + EXCLUDED.failed,
                            still_present = run_batch_totals.still_present + EXCLUDED.still_present,
                            clean_batches = run_batch_totals.clean_batches + EXCLUDED.clean_batches,
                            rows_remaining_batches = run_batch_totals.rows_remaining_batches +
                                EXCLUDED.rows_remaining_batches,
                            not_supported_batches = run_batch_totals.not_supported_batches +
                                EXCLUDED.not_supported_batches,
                            first_at = least(run_batch_totals.first_at, EXCLUDED.first_at),
                            last_at = greatest(run_batch_totals.last_at, EXCLUDED.last_at)""",
                runId,
                batch.ofCopy() ? batch.dataset() : runDataset,
                counts.deleted(),
                counts.skippedNewer(),
                counts.alreadyAbsent(),
                counts.failed(),
                batch.stillPresent(),
                readBack == ReadBackResult.CLEAN ? 1 : 0,
                readBack == ReadBackResult.ROWS_REMAINING ? 1 : 0,
                readBack == ReadBackResult.NOT_SUPPORTED ? 1 : 0,
                now,
                now);
        if (batch.ofCopy()) {
            return Optional.of(copyTaskReported(runId, batch.taskId())
                    .orElseGet(() -> counters("SELECT " + COUNTERS + " FROM runs WHERE id = ?", runId)));
        }
        return Optional.of(counters(COUNT_BATCH + COUNTERS, batch.copyTasks(), runId));
    }

    private static final String COUNTERS = "batches_completed, copy_tasks_published, copy_tasks_reported";

    private RunRecord.BatchCounters counters(String sql, Object... args) {
        return jdbc.queryForObject(
                sql, (rs, i) -> new RunRecord.BatchCounters(rs.getLong(1), rs.getLong(2), rs.getLong(3)), args);
    }

    /** Records a batch that failed for good, once; {@code copyOf} names the source when it is a copy's batch. */
    public boolean addFailure(String runId, BatchFailed failed, String copyOf) {
        boolean added = jdbc.update(
                        """
                        INSERT INTO run_batch_failures (run_id, batch_id, task_id, dataset, copy_of, reason,
                            received_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, batch_id) DO NOTHING""",
                        runId,
                        failed.batchId(),
                        failed.taskId(),
                        failed.dataset(),
                        copyOf,
                        failed.reason(),
                        Timestamp.from(clock.instant()))
                == 1;
        if (added && copyOf != null) {
            copyTaskReported(runId, failed.taskId());
        }
        return added;
    }

    /**
     * A copy task is done once it has reported a batch or failed for good (a task may be cut into batches); returns the
     * run's counters if this is the first time the task reported, nothing if it had before.
     */
    private Optional<RunRecord.BatchCounters> copyTaskReported(String runId, String taskId) {
        if (jdbc.update(
                        "INSERT INTO run_copy_tasks (run_id, task_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                        runId,
                        taskId)
                == 1) {
            return Optional.of(counters(
                    "UPDATE runs SET copy_tasks_reported = copy_tasks_reported + 1 WHERE id = ?" + " RETURNING "
                            + COUNTERS,
                    runId));
        }
        return Optional.empty();
    }

    /**
     * The running totals per dataset: the run's own batches under its dataset's name, each copy's under its
     * view name. Reads one row per dataset, however many batches reported.
     */
    public Map<String, BatchTotals> totalsByDataset(String runId) {
        Map<String, BatchTotals> totals = new LinkedHashMap<>();
        jdbc.query(
                "SELECT * FROM run_batch_totals WHERE run_id = ? ORDER BY dataset",
                rs -> {
                    totals.put(rs.getString("dataset"), totals(rs));
                },
                runId);
        return totals;
    }

    public List<BatchFailure> failures(String runId) {
        return jdbc.query(
                """
                        SELECT batch_id, task_id, dataset, copy_of, reason, received_at FROM run_batch_failures
                        WHERE run_id = ? ORDER BY received_at, batch_id""",
                (rs, i) -> new BatchFailure(
                        rs.getString("batch_id"),
                        rs.getString("task_id"),
                        rs.getString("dataset"),
                        rs.getString("copy_of"),
                        rs.getString("reason"),
                        rs.getTimestamp("received_at").toInstant().toString()),
                runId);
    }

    /**
     * The {@code keysDigest}s the batches reported, per dataset as in {@link #totalsByDataset} (batches counted
     * before copies were recorded have no dataset: they are the run's own). Read once, for the receipt.
     */
    public Map<String, List<String>> keysDigests(String runId, String runDataset) {
        Map<String, List<String>> digests = new LinkedHashMap<>();
        jdbc.query(
                """
                        SELECT CASE WHEN copy_of IS NULL THEN ? ELSE dataset END AS of_dataset, keys_digest
                        FROM run_batches WHERE run_id = ? AND keys_digest IS NOT NULL ORDER BY 1, 2""",
                rs -> {
                    digests.computeIfAbsent(rs.getString(1), d -> new ArrayList<>())
                            .add(rs.getString(2));
                },
                runDataset,
                runId);
        return digests;
    }

    private static BatchTotals totals(ResultSet rs) throws SQLException {
        return new BatchTotals(
                rs.getLong("batches"),
                rs.getLong("deleted"),
                rs.getLong("skipped_newer"),
                rs.getLong("already_absent"),
                rs.getLong("failed"),
                rs.getLong("still_present"),
                new BatchTotals.ReadBacks(
                        rs.getLong("clean_batches"),
                        rs.getLong("rows_remaining_batches"),
                        rs.getLong("not_supported_batches")),
                rs.getTimestamp("first_at").toInstant().toString(),
                rs.getTimestamp("last_at").toInstant().toString());
    }
}
