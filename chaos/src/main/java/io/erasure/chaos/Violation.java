package io.erasure.chaos;

/** One broken invariant found in a trial: its kind and what exactly was found (row, expected, found). */
record Violation(Kind kind, String detail) {

    enum Kind {
        /** A row the run had to keep (not departed, back, written after the cut-off) is gone. */
        OVER_DELETED,
        /** A row that was deletable and in no one's way is still there after the run completed. */
        NOT_DELETED,
        /** A row kept alive by a write after the cut-off does not hold what was written. */
        NEWER_WRITE_LOST,
        /** A cache entry is left where its source row is gone. */
        COPY_LEFT,
        /** A cache entry is gone where its source row was kept. */
        COPY_OVER_DELETED,
        /** A deleted row has no record in the deletion log. */
        LOG_MISSING,
        /** A deleted row has more than one record in the deletion log (applied twice). */
        LOG_DUPLICATE,
        /** A row the run had to keep has a record in the deletion log. */
        LOG_OF_KEPT_ROW,
        /** The runs' receipts report another number of deleted rows than the engines show. */
        RECEIPT_MISMATCH,
        /** Restore by run left a deleted row missing or different from what was deleted. */
        RESTORE_MISSING,
        /** Restore by run changed a row that was there (a newer write overwritten). */
        RESTORE_OVERWROTE,
        /** A run (or the run that re-tried a failed one) did not complete. */
        RUN_NOT_COMPLETED,
        /** A recovery did not complete. */
        RESTORE_NOT_COMPLETED,
        /** A recovery whose service was killed under it still looks alive (PENDING or RUNNING) minutes later. */
        RESTORE_ABANDONED,
        /** The trial could not go on: a fault did not heal, or the platform stopped answering. */
        TRIAL_ABORTED
    }

    @Override
    public String toString() {
        return kind + ": " + detail;
    }
}
