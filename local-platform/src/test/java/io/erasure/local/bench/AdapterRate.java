package io.erasure.local.bench;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The adapter's own delete rate, unthrottled, in the same run as the pipeline: the same keys on a copy of the table
 * ({@link BenchTables#loadAdapterCopies}), deleted through {@code planDelete} + {@code executeDelete} in calls of the
 * pipeline's task size, one caller, nothing else (no log, no read-back, no throttle).
 */
final class AdapterRate {

    private AdapterRate() {}

    record Measured(long deleted, double seconds) {
        double rowsPerSecond() {
            return deleted / seconds;
        }
    }

    static Measured measure(
            StoreConnection connection,
            DatasetSpec copy,
            String keyColumn,
            int n,
            int deletableEvery,
            int keysPerCall) {
        CutoffTimestamp cutoff = CutoffTimestamp.fromInstant(Instant.now());
        try (StoreAdapter adapter = StoreAdapters.load().open(connection)) {
            adapter.checkDataset(copy);
            // the connection and its prepared statements warm, as the pipeline's are by its own reads
            adapter.checkLiveState(copy, List.of(Map.of(keyColumn, (long) deletableEvery)));
            long deleted = 0;
            int call = 0;
            long started = System.nanoTime();
            List<Map<String, Object>> keys = new ArrayList<>(keysPerCall);
            for (long member = deletableEvery; member <= n; member += deletableEvery) {
                keys.add(Map.of(keyColumn, member));
                if (keys.size() == keysPerCall || member + deletableEvery > n) {
                    deleted += adapter.executeDelete(
                                    adapter.planDelete(new DeleteBatch(copy, "adapter-bench-" + call++, cutoff, keys)))
                            .deleted();
                    keys = new ArrayList<>(keysPerCall);
                }
            }
            return new Measured(deleted, (System.nanoTime() - started) / 1e9);
        }
    }
}
