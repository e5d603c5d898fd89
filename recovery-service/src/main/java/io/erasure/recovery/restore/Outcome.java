package io.erasure.recovery.restore;

/** What a recovery did (or, in a dry-run, would do) with one deletion record. */
public enum Outcome {
    /**
     * Dry-run: no live row, the record can be restored; for an anonymisation's record, its cleared columns can be put
     * back (still null, and the row not written since, where the store can tell).
     */
    RESTORABLE,
    /**
     * Dry-run: a live row exists (written after the delete; on a store with per-cell write times, every logged cell
     * has a newer one, else the cells without one are RESTORABLE), or for an anonymisation's record a cleared column
     * holds a value again or the row was written after the cut-off; a restore would keep it.
     */
    CONFLICT,
    RESTORED,
    /** Data written after the delete (or an earlier restore) was there and was kept. */
    NEWER_DATA_KEPT,
    /** Every column's TTL ran out since the delete: nothing to restore. */
    EXPIRED,
    FAILED,
    /** The record was purged from the log ("purge now"): its payload cannot be read. */
    PURGED,
    /** A requested key has no record in the log: never deleted, or its record outlived the log's retention. */
    NOT_IN_LOG,
    /**
     * Not stored: the row waits for its parent row's record, further on in the scope ({@link ParentlessRows}); a row
     * whose parent never comes back is stored FAILED.
     */
    PARENT_MISSING
}
