package io.erasure.store.redis.plan;

import io.erasure.store.redis.Pipeline;
import io.erasure.store.redis.keys.DatasetKeys;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.DeletePlan.KeyDecision;
import io.lettuce.core.RedisFuture;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a plan's {@code UNLINK} commands, all sent at once and awaited together. {@code UNLINK} removes the keys at
 * once and frees their memory in a background thread, so a large value does not block the server as {@code DEL}
 * would. The replies count the keys removed; a planned key that is gone by then (expired, or deleted by the
 * application) counts as absent.
 *
 * <p>A failure part-way may leave some chunks done; retrying the same plan finds those keys absent, so executing a
 * plan twice deletes nothing more than executing it once.
 */
public final class DeleteExecutor {

    private final Pipeline pipeline;
    private final int chunkSize;

    public DeleteExecutor(Pipeline pipeline, int chunkSize) {
        this.pipeline = pipeline;
        this.chunkSize = chunkSize;
    }

    public DeleteOutcome execute(DatasetKeys dataset, DeletePlan plan) {
        List<String> toDelete = new ArrayList<>();
        for (KeyDecision decision : plan.decisions()) {
            if (decision.action() == Action.DELETE_ROW) {
                toDelete.add(dataset.keyOf(decision.key()));
            }
        }
        List<List<String>> chunks = UnlinkStatements.requireOwn(plan, toDelete, chunkSize);
        List<RedisFuture<Long>> unlinks = new ArrayList<>(chunks.size());
        Pipeline.Batch batch = pipeline.batch();
        for (List<String> chunk : chunks) {
            unlinks.add(batch.unlink(chunk));
        }
        batch.send();
        long deleted = pipeline
                .values(
                        "delete " + toDelete.size() + " keys of dataset '"
                                + dataset.spec().name() + "' batch "
                                + plan.batch().batchId(),
                        unlinks)
                .stream()
                .mapToLong(Long::longValue)
                .sum();
        int absent = (int) plan.count(Action.ABSENT) + (toDelete.size() - (int) deleted);
        return new DeleteOutcome((int) deleted, 0, absent, 0, chunks.size());
    }
}
