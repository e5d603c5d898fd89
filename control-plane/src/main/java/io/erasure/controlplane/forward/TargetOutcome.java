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
    /**
     * The dataset's team no longer holds a grant for a place the dataset deletes from (an operator narrowed
     * {@code erasure.ownership.grants} after it was registered): nothing is published, and the request stays
     * unresolved. The reconciler looks again at each retry and publishes the tasks once the grant is back.
     */
    NOT_GRANTED,
    /** Read-back found rows still present after the delete. */
    ROWS_REMAINING,
    /** A source or copy batch failed for good. */
    FAILED
}
