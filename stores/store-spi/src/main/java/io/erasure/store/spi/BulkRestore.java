package io.erasure.store.spi;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import java.util.List;
import java.util.Optional;

/**
 * Bulk restores of one type of store with one set of {@link BulkRestoreOptions}, opened by a
 * {@link BulkRestoreProvider}. Thread-safe; a caller runs one restore per connection at a time, since a bulk load is
 * usually one operation of the store.
 */
public interface BulkRestore {

    /**
     * Why bulk restores into {@code connection} cannot run (settings the connection lacks, such as a management port),
     * or empty when they can. Reads the settings only: it never connects.
     */
    Optional<String> unavailable(StoreConnection connection);

    /**
     * Restores {@code records} of {@code spec}'s dataset through {@code adapter}, opened on {@code connection}: one
     * outcome per record, in order, the same as {@link StoreAdapter#restore} would give.
     *
     * @throws StoreException.Fatal     if {@code adapter} is not of this provider's type, or the connection cannot take
     *                                  bulk restores ({@link #unavailable})
     * @throws StoreException.Retriable if the store could not be read or the load failed; repeating is safe
     */
    RestoreOutcome restore(
            StoreAdapter adapter, StoreConnection connection, DatasetSpec spec, List<DeletionRecord> records);
}
