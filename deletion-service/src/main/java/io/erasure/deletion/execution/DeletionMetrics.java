package io.erasure.deletion.execution;

import io.erasure.model.event.BatchCounts;
import io.micrometer.core.instrument.MeterRegistry;

/** Rows deleted, skipped, absent and failed per dataset; tombstones and log records per store. */
public class DeletionMetrics {

    private final MeterRegistry meters;

    public DeletionMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    void batchDone(String dataset, String store, BatchCounts counts, int tombstones, int recordsLogged) {
        rows(dataset, "deleted", counts.deleted());
        rows(dataset, "skipped_newer", counts.skippedNewer());
        rows(dataset, "absent", counts.alreadyAbsent());
        meters.counter("erasure.deletion.tombstones", "store", store).increment(tombstones);
        meters.counter("erasure.deletion.records.logged", "dataset", dataset).increment(recordsLogged);
    }

    void batchFailed(String dataset, long keys) {
        rows(dataset, "failed", keys);
    }

    private void rows(String dataset, String outcome, long n) {
        meters.counter("erasure.deletion.rows", "dataset", dataset, "outcome", outcome)
                .increment(n);
    }
}
