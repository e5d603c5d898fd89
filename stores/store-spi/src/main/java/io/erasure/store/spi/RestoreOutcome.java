package io.erasure.store.spi;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The result of a restore, one outcome per deletion record, in the order given. */
public record RestoreOutcome(List<RecordOutcome> records) {

    public RestoreOutcome {
        records = List.copyOf(records);
    }

    public long count(Status status) {
        return records.stream().filter(r -> r.status() == status).count();
    }

    public enum Status {
        /** The row is back as it was. */
        RESTORED,
        /** Data written after the delete (or an earlier restore) was there and was kept. */
        NEWER_DATA_KEPT,
        /** Every cell's TTL ran out since the delete: nothing to restore. */
        EXPIRED,
        /** The store refused the write; see detail. */
        FAILED,
        /**
         * The row belongs under a parent row (a foreign key) that is not in the store: nothing was written. Restored
         * after its parent's record, it goes in; a recovery tries it again once its other records are back, and reports
         * it FAILED only if the parent never came.
         */
        PARENT_MISSING
    }

    public record RecordOutcome(String recordId, Map<String, Object> key, Status status, String detail) {
        public RecordOutcome {
            Objects.requireNonNull(recordId, "recordId");
            Objects.requireNonNull(status, "status");
        }
    }
}
