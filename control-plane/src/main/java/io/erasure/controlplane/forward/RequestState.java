package io.erasure.controlplane.forward;

/** A deletion request's state: ALIVE (no request) → TOMBSTONED → PURGED; HELD waits for an OPERATOR first. */
public enum RequestState {
    /** Part of a burst over {@code erasure.forward.burst}: nothing published until an OPERATOR approves. */
    HELD,
    /** Written on intake; its time is the cut-off; tasks are out and targets are confirming. */
    TOMBSTONED,
    /** Every target that must confirm has confirmed. */
    PURGED
}
