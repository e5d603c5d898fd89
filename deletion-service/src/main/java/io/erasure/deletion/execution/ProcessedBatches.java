package io.erasure.deletion.execution;

import io.erasure.deletion.throttle.SpreadPacer;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import java.util.Arrays;
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
    private static final String ADD_PROGRESS = """
            INSERT INTO spread_progress (run_id, dataset, keys_done) SELECT ?, ?, ? FROM recorded
            ON CONFLICT (run_id, dataset) DO UPDATE SET keys_done = spread_progress.keys_done + EXCLUDED.keys_done""";

    private final JdbcTemplate jdbc;

    public ProcessedBatches(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** A batch's result; {@code warnings} are reported once, by the delivery that executed it. */
    public record Done(BatchCounts counts, long stillPresent, long recordsLogged, int copyTasks, String keysDigest,
                       java.util.List<String> warnings) {

        public Done(BatchCounts counts, long stillPresent, long recordsLogged, int copyTasks, String keysDigest) {
            this(counts, stillPresent, recordsLogged, copyTasks, keysDigest, java.util.List.of());
        }
    }

    /** The recorded result if this batch was done before (and counts this delivery). */
    public Optional<Done> redelivered(String batchId, String dataset, String keySet) {
        String scope = scope(dataset, keySet);
        int seen = jdbc.update("UPDATE processed_batches SET deliveries = deliveries + 1 WHERE batch_id = ? AND scope_hash = ?",
                batchId, scope);
        if (seen == 0) {
            return Optional.empty();
        }
        return jdbc.query("""
                        SELECT rows_deleted, rows_skipped, already_absent, still_present, records_logged, copy_tasks,
                               keys_digest
                        FROM processed_batches WHERE batch_id = ? AND scope_hash = ?""",
                (rs, i) -> new Done(new BatchCounts(rs.getLong(1), rs.getLong(2), rs.getLong(3), 0), rs.getLong(4),
                        rs.getLong(5), rs.getInt(6), rs.getString(7)),
                batchId, scope).stream().findFirst();
    }

    public void done(String batchId, String dataset, String keySet, String runId, String taskId, Done result) {
        done(batchId, dataset, keySet, runId, taskId, result, 0);
    }

    /** Records a batch; {@code pacedKeys} > 0 (the keys of a paced run's batch) adds them to the run's progress. */
    public void done(String batchId, String dataset, String keySet, String runId, String taskId, Done result,
                     int pacedKeys) {
        BatchCounts counts = result.counts();
        Object[] batch = {batchId, scope(dataset, keySet), runId, dataset, taskId, counts.deleted(),
                counts.skippedNewer(), counts.alreadyAbsent(), result.stillPresent(), result.recordsLogged(),
                result.copyTasks(), result.keysDigest()};
        if (pacedKeys <= 0 || runId == null) {
            jdbc.update(INSERT_BATCH, batch);
            return;
        }
        // one statement: the keys count exactly when the batch is recorded, so a redelivered batch never adds them twice
        Object[] withProgress = Arrays.copyOf(batch, batch.length + 3);
        withProgress[batch.length] = runId;
        withProgress[batch.length + 1] = dataset;
        withProgress[batch.length + 2] = pacedKeys;
        jdbc.update("WITH recorded AS (" + INSERT_BATCH + " RETURNING 1) " + ADD_PROGRESS, withProgress);
    }

    @Override
    public long keysDone(RunId run, String dataset) {
        return jdbc.query("SELECT keys_done FROM spread_progress WHERE run_id = ? AND dataset = ?",
                (rs, i) -> rs.getLong(1), run.value(), dataset).stream().findFirst().orElse(0L);
    }

    public int deliveries(String batchId) {
        return jdbc.query("SELECT deliveries FROM processed_batches WHERE batch_id = ?", (rs, i) -> rs.getInt(1), batchId)
                .stream().findFirst().orElse(0);
    }

    private static String scope(String dataset, String keySet) {
        return DeterministicId.sha256Hex(dataset, keySet);
    }
}
