package io.erasure.deletion.execution;

/** The steps of a batch, in order; fault tests stop a batch between any two of them. */
public enum Step {
    PLANNED,
    /** The rows to delete are read (after the throttle's wait). */
    READ,
    /** Every record is acknowledged by the log, and the copy values that need remembering are remembered. */
    LOGGED,
    DELETED,
    VERIFIED,
    COPIES_PUBLISHED,
    /** The result is reported and the batch recorded as done (both in flight together). */
    REPORTED
}
