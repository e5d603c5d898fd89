package io.erasure.controlplane.forward;

/** What became of one dataset of a request. */
public enum TargetOutcome {
    /** Tasks published; waiting for the source batches and their copy tasks. */
    PENDING,
    /** The source rows and every copy task reported done. */
    DELETED,
    /** The dataset keeps a snapshot (KEEP_SNAPSHOT): nothing deleted, on purpose. */
    SNAPSHOT_KEPT,
    /** The dataset asked for anonymisation, which is not carried out yet: the request stays unresolved. */
    ANONYMISATION_REQUESTED,
    /** The identifier is not the dataset's key: the nightly audit covers it. */
    LEFT_TO_AUDIT,
    /** Read-back found rows still present after the delete. */
    ROWS_REMAINING,
    /** A source or copy batch failed for good. */
    FAILED
}
