package io.erasure.deletion.execution;

/** The steps of a batch, in order; fault tests stop a batch between any two of them. */
public enum Step {
    PLANNED,
    READ,
    LOGGED,
    DELETED,
    VERIFIED,
    COPIES_PUBLISHED,
    REPORTED
}
