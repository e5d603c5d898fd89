package io.erasure.model.event;

import io.erasure.model.check.Require;

/**
 * What happened to each key of a batch: deleted, kept because written after the cut-off,
 * already gone, or failed.
 */
public record BatchCounts(long deleted, long skippedNewer, long alreadyAbsent, long failed) {

    public BatchCounts {
        Require.nonNegative("deleted", deleted);
        Require.nonNegative("skippedNewer", skippedNewer);
        Require.nonNegative("alreadyAbsent", alreadyAbsent);
        Require.nonNegative("failed", failed);
    }

    public long total() {
        return deleted + skippedNewer + alreadyAbsent + failed;
    }
}
