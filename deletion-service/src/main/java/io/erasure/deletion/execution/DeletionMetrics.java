package io.erasure.deletion.execution;

import io.erasure.model.event.BatchCounts;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Rows deleted, skipped, absent and failed per dataset ({@value #ROWS}, tag {@code outcome}); keys the read-back still
 * found after their delete ({@value #READ_BACK_MISSES}); tombstones per store and log records per dataset.
 */
public class DeletionMetrics {

    public static final String ROWS = "erasure.deletion.rows";
    /**
     * Keys whose row was still there when read back after its delete, by dataset: the store did not apply a delete it
     * acknowledged, or a write came in between. Each is reported in its batch ({@code stillPresent}) and its run.
     */
    public static final String READ_BACK_MISSES = "erasure.deletion.readback.misses";

    private final MeterRegistry meters;

    public DeletionMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    void batchDone(
            String dataset, String store, BatchCounts counts, long stillPresent, int tombstones, int recordsLogged) {
        rows(dataset, "deleted", counts.deleted());
        meters.counter(READ_BACK_MISSES, "dataset", dataset).increment(stillPresent);
        rows(dataset, "skipped_newer", counts.skippedNewer());
        rows(dataset, "absent", counts.alreadyAbsent());
        rows(
                dataset,
                "failed",
                counts.failed()); // keys of a completed batch that did not go (read-back misses among them)
        meters.counter("erasure.deletion.tombstones", "store", store).increment(tombstones);
        meters.counter("erasure.deletion.records.logged", "dataset", dataset).increment(recordsLogged);
    }

    void batchFailed(String dataset, long keys) {
        rows(dataset, "failed", keys);
    }

    private void rows(String dataset, String outcome, long n) {
        meters.counter(ROWS, "dataset", dataset, "outcome", outcome).increment(n);
    }
}
