package io.erasure.store.spi;

/**
 * What an executed delete did.
 *
 * @param deleted      rows deleted
 * @param skippedNewer rows kept because they were written after the cut-off (at plan or at execute time)
 * @param absent       keys that had no row
 * @param tombstones   tombstones written (Cassandra: one per row or partition delete; 0 elsewhere)
 * @param statements   statements executed
 */
public record DeleteOutcome(int deleted, int skippedNewer, int absent, int tombstones, int statements) {

    public DeleteOutcome {
        if (deleted < 0 || skippedNewer < 0 || absent < 0 || tombstones < 0 || statements < 0) {
            throw new IllegalArgumentException("counts cannot be negative");
        }
    }
}
