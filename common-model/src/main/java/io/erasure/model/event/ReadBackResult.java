package io.erasure.model.event;

/** The outcome of reading a batch's keys back after deleting them. */
public enum ReadBackResult {
    /** No deleted key is present any more. */
    CLEAN,
    /** Some keys that were deleted are still present. */
    ROWS_REMAINING,
    /** The store cannot be read back; the next audit is the check. */
    NOT_SUPPORTED
}
