package io.erasure.store.redis.plan;

import io.erasure.store.redis.keys.DatasetKeys;
import io.erasure.store.redis.read.ValueReader;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.DeletePlan.KeyDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Plans a batch's delete from one pipelined {@code EXISTS} per key: a key present now is {@link Action#DELETE_ROW},
 * one that is not is {@link Action#ABSENT} and is left out of the commands, so that nothing is deleted that the
 * deletion service did not read (and log) after planning.
 *
 * <p>Redis keeps no write times, so nothing is ever {@link Action#SKIP_WRITTEN_AFTER_CUTOFF}: a key written again
 * after the cut-off is deleted too. That is why Redis serves only as a copy, deleted after its source.
 */
public final class DeletePlanner {

    private final ValueReader reader;
    private final int chunkSize;

    public DeletePlanner(ValueReader reader, int chunkSize) {
        this.reader = reader;
        this.chunkSize = chunkSize;
    }

    public DeletePlan plan(DatasetKeys dataset, DeleteBatch batch) {
        List<Map<String, Object>> keys = batch.keys();
        List<String> redisKeys = dataset.keysOf(keys);
        List<Boolean> present = reader.exist(dataset, keys);
        List<KeyDecision> decisions = new ArrayList<>(keys.size());
        List<String> toDelete = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            decisions.add(new KeyDecision(keys.get(i), present.get(i) ? Action.DELETE_ROW : Action.ABSENT));
            if (present.get(i)) {
                toDelete.add(redisKeys.get(i));
            }
        }
        return new DeletePlan(batch, UnlinkStatements.of(toDelete, chunkSize), decisions);
    }
}
