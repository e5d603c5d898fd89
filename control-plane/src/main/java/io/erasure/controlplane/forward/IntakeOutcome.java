package io.erasure.controlplane.forward;

/** What intake did with one "identifier deleted" event. */
public enum IntakeOutcome {
    /** A new request, TOMBSTONED, its tasks published. */
    ACCEPTED,
    /** A new request over the burst limit, HELD for an OPERATOR. */
    HELD,
    /** The event that made the entity's current version, delivered again: counted, nothing re-applied. */
    DUPLICATE,
    /** Not newer than the entity's current version (out-of-order delivery): dropped, counted. */
    STALE,
    /** In a chain this control plane originated: its own action echoed back, dropped, counted. */
    LOOP
}
