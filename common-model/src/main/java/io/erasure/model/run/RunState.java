package io.erasure.model.run;

import java.util.EnumSet;
import java.util.Set;

/**
 * The life of a run. The control plane owns it and moves it only along {@link #canTransitionTo}:
 *
 * <pre>
 * PENDING → AUDITING → VALIDATING → AWAITING_APPROVAL → AUTHORIZED → DELETING → VERIFYING → COMPLETED
 *                          │   └──────────────────────────↗ (under the limit)
 *                          └→ DRY_RUN_COMPLETED (dry-run stops before executing anything)
 * any non-terminal state → FAILED; any state before VERIFYING → CANCELLED
 * </pre>
 */
public enum RunState {
    PENDING,
    AUDITING,
    VALIDATING,
    AWAITING_APPROVAL,
    AUTHORIZED,
    DELETING,
    VERIFYING,
    COMPLETED,
    FAILED,
    CANCELLED,
    DRY_RUN_COMPLETED;

    /** The states this one may move to next; empty for terminal states. */
    public Set<RunState> next() {
        return switch (this) {
            case PENDING -> EnumSet.of(AUDITING, FAILED, CANCELLED);
            case AUDITING -> EnumSet.of(VALIDATING, FAILED, CANCELLED);
            case VALIDATING -> EnumSet.of(AWAITING_APPROVAL, AUTHORIZED, DRY_RUN_COMPLETED, FAILED, CANCELLED);
            case AWAITING_APPROVAL -> EnumSet.of(AUTHORIZED, FAILED, CANCELLED);
            case AUTHORIZED -> EnumSet.of(DELETING, FAILED, CANCELLED);
            case DELETING -> EnumSet.of(VERIFYING, FAILED, CANCELLED);
            // every delete has happened by now: cancelling would only hide the receipt
            case VERIFYING -> EnumSet.of(COMPLETED, FAILED);
            case COMPLETED, FAILED, CANCELLED, DRY_RUN_COMPLETED -> EnumSet.noneOf(RunState.class);
        };
    }

    public boolean canTransitionTo(RunState target) {
        return target != null && next().contains(target);
    }

    public boolean isTerminal() {
        return next().isEmpty();
    }
}
