package io.erasure.deletion.execution;

import io.erasure.deletion.throttle.SpreadPacer;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Batches already executed, keyed by batch id and the scope of their effect (dataset + key set): a
 * redelivered task re-reports the recorded result and changes nothing (DESIGN invariant 4). A paced run's batches
 * also add their keys to the run's progress, which every replica paces it on ({@link SpreadPacer}).
 */
public class ProcessedBatches implements SpreadPacer.Progress {

    private static final String INSERT_BATCH = """
            INSERT INTO processed_batches (batch_id, scope_hash, run_id, dataset, task_id, rows_deleted, rows_skipped,
                                           already_absent, still_present, records_logged, copy_tasks, keys_digest)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (batch_id, scope_hash) DO NOTHING""";
    private static final String DROP_COPY_VALUES = "DELETE FROM batch_copy_sources WHERE batch_id = ?";
    private static final String ADD_PROGRESS = """
            INSERT INTO spread_progress (run_id, dataset, keys_done) SELECT ?, ?, ? FROM recorded
            ON CONFLICT (run_id, dataset) DO UPDATE SET keys_done = spread_progress.keys_done + EXCLUDED.keys_done""";

    private final JdbcTemplate jdbc;

    public ProcessedBatches(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** A batch's result; {@code warnings} are reported once, by the delivery that executed it. */
    public record Done(
            BatchCounts counts,
            long stillPresent,
            long recordsLogged,
            int copyTasks,
            String keysDigest,
            List<String> warnings) {

        public Done(BatchCounts counts, long stillPresent, long recordsLogged, int copyTasks, String keysDigest) {
            this(counts, stillPresent, recordsLogged, copyTasks, keysDigest, List.of());
        }
    }

    /** The recorded result if this batch was done before (and counts this delivery): one statement either way. */
    public Optional<Done> redelivered(String batchId, String dataset, String keySet) {
        return jdbc
                .query(
                        """
                        UPDATE processed_batches SET deliveries = deliveries + 1 WHERE batch_id = ? AND scope_hash = ?
                        RETURNING rows_deleted, rows_skipped, already_absent, still_present, records_logged, copy_tasks,
                                  keys_digest""",
                        (rs, i) -> new Done(
                                new BatchCounts(rs.getLong(1), rs.getLong(2), rs.getLong(3), 0),
                                rs.getLong(4),
                                rs.getLong(5),
                                rs.getInt(6),
                                rs.getString(7)),
                        batchId,
                        scope(dataset, keySet))
                .stream()
                .findFirst();
    }

    public void done(String batchId, String dataset, String keySet, String runId, String taskId, Done result) {
        done(batchId, dataset, keySet, runId, taskId, result, 0, false);
    }

    /**
     * Records a batch, in one statement: {@code pacedKeys} > 0 (the keys of a paced run's batch) adds them to the run's
     * progress, and {@code dropCopyValues} deletes the source values {@link io.erasure.deletion.fanout.CopyFanOut}
     * remembered for the batch's copies. Once the batch is recorded no delivery needs them again (a redelivery
     * re-reports the record), and in the same statement no crash can leave them behind.
     */
    public void done(
            String batchId,
            String dataset,
            String keySet,
            String runId,
            String taskId,
            Done result,
            int pacedKeys,
            boolean dropCopyValues) {
        BatchCounts counts = result.counts();
        List<Object> args = new ArrayList<>();
        List<String> with = new ArrayList<>();
        if (dropCopyValues) {
            with.add("dropped AS (" + DROP_COPY_VALUES + ")");
            args.add(batchId);
        }
        args.addAll(Arrays.asList(
                batchId,
                scope(dataset, keySet),
                runId,
                dataset,
                taskId,
                counts.deleted(),
                counts.skippedNewer(),
                counts.alreadyAbsent(),
                result.stillPresent(),
                result.recordsLogged(),
                result.copyTasks(),
                result.keysDigest()));
        String statement = INSERT_BATCH;
        if (pacedKeys > 0 && runId != null) {
            // the keys count exactly when the batch is recorded, so a redelivered batch never adds them twice
            with.add("recorded AS (" + INSERT_BATCH + " RETURNING 1)");
            statement = ADD_PROGRESS;
            args.addAll(Arrays.asList(runId, dataset, pacedKeys));
        }
        jdbc.update(with.isEmpty() ? statement : "WITH " + String.join(", ", with) + " " + statement, args.toArray());
    }

    @Override
    public long keysDone(RunId run, String dataset) {
        return jdbc
                .query(
                        "SELECT keys_done FROM spread_progress WHERE run_id = ? AND dataset = ?",
                        (rs, i) -> rs.getLong(1),
                        run.value(),
                        dataset)
                .stream()
                .findFirst()
                .orElse(0L);
    }

    public int deliveries(String batchId) {
        return jdbc
                .query("SELECT deliveries FROM processed_batches WHERE batch_id = ?", (rs, i) -> rs.getInt(1), batchId)
                .stream()
                .findFirst()
                .orElse(0);
    }

    private static String scope(String dataset, String keySet) {
        return DeterministicId.sha256Hex(dataset, keySet);
    }
}
