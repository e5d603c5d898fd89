package io.erasure.controlplane.forward;

/**
 * @param requestId the request the event made, or the entity's current request for a duplicate or stale event
 *                  (null when the entity has none)
 * @param state     that request's state (null without one)
 */
public record IntakeResult(IntakeOutcome outcome, String requestId, RequestState state, String message) {}
