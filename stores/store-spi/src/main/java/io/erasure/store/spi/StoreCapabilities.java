package io.erasure.store.spi;

/**
 * What an adapter can do, declared rather than discovered from exceptions.
 *
 * @param partitionDelete can replace the row deletes of a whole partition by one partition delete
 * @param rowTimestamps   reads per-column write timestamps (µs); otherwise a conditional column stands in
 * @param cellTtl         reads and restores per-column TTLs
 * @param restore         can restore rows from deletion records
 * @param bulkRestore     has a bulk restore path (e.g. generated SSTables)
 * @param maxBatch        the most keys one call may carry
 * @param cutoffConditioned deletes are conditioned on the batch's cut-off, so a row written after it
 *                        survives even when the write lands between plan and execute. Stores without
 *                        write times (a cache, an owner's HTTP endpoint) cannot promise this; they serve
 *                        only as copies, deleted after their source row was deleted at the cut-off
 * @param clearColumns    can anonymise: plan and execute a batch with clear columns ({@link DeleteBatch#clearColumns()})
 *                        that sets them to null under the cut-off rule and keeps the rows
 */
public record StoreCapabilities(
        boolean partitionDelete,
        boolean rowTimestamps,
        boolean cellTtl,
        boolean restore,
        boolean bulkRestore,
        int maxBatch,
        boolean cutoffConditioned,
        boolean clearColumns) {

    /** A store that cannot anonymise. */
    public StoreCapabilities(
            boolean partitionDelete,
            boolean rowTimestamps,
            boolean cellTtl,
            boolean restore,
            boolean bulkRestore,
            int maxBatch,
            boolean cutoffConditioned) {
        this(partitionDelete, rowTimestamps, cellTtl, restore, bulkRestore, maxBatch, cutoffConditioned, false);
    }

    /** A store whose deletes honour the cut-off (the tabular stores). */
    public StoreCapabilities(
            boolean partitionDelete,
            boolean rowTimestamps,
            boolean cellTtl,
            boolean restore,
            boolean bulkRestore,
            int maxBatch) {
        this(partitionDelete, rowTimestamps, cellTtl, restore, bulkRestore, maxBatch, true, false);
    }

    public StoreCapabilities {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be >= 1, got " + maxBatch);
        }
    }
}
