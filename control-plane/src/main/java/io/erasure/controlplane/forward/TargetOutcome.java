package io.erasure.controlplane.forward;

/** What became of one dataset of a request. */
public enum TargetOutcome {
    /** Tasks published (for a lookup target: lookups first); waiting for the source batches and their copy tasks. */
    PENDING,
    /** The source rows and every copy task reported done. */
    DELETED,
    /** The dataset keeps a snapshot (KEEP_SNAPSHOT): nothing deleted, on purpose. */
    SNAPSHOT_KEPT,
    /** The policy's columns were cleared in every row of the identifier (ANONYMISE), and the copies deleted. */
    ANONYMISED,
    /**
     * The identifier cannot be reached at once (not the key, no index the store can search, the dataset disabled):
     * the nightly audit covers it.
     */
    LEFT_TO_AUDIT,
    /** Read-back found rows still present after the delete. */
    ROWS_REMAINING,
    /** A source or copy batch failed for good. */
    FAILED
}
