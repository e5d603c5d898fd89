package io.erasure.support.access;

/** What a caller may do. */
public enum Role {
    /** Registers and changes its own team's datasets, triggers their runs. */
    OWNER,
    /** Runs, approvals, kill switches. */
    OPERATOR,
    /** Recovery requests. */
    RECOVERY,
    /** Read-only: registry, runs, dashboard. */
    VIEWER,
    /** An upstream system that publishes forward-deletion requests ("identifier deleted"), and nothing else. */
    PUBLISHER,
    /**
     * Prometheus' own credential: scrapes {@code /actuator/prometheus}, and nothing else (no API, no other endpoint).
     */
    METRICS,
    /**
     * The control plane's own credential at the deletion service: checks a registration against the live stores
     * ({@code POST /api/dataset-checks}), and nothing else.
     */
    REGISTRY;

    public String authority() {
        return "ROLE_" + name();
    }
}
