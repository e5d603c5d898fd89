package io.erasure.store.spi;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A store's load as a utilization in 0..1 (1 = no headroom left), with the parts it was made of
 * (each also normalised to 0..1), e.g. {@code pending_compactions}, {@code mutation_backlog},
 * {@code write_latency} for Cassandra; {@code connections}, {@code lock_waits}, {@code latency} for PostgreSQL.
 * The utilization is the largest part: the busiest resource decides.
 */
public record LoadSignal(double utilization, Map<String, Double> parts, Instant measuredAt) {

    public LoadSignal {
        if (!(utilization >= 0 && utilization <= 1)) {
            throw new IllegalArgumentException("utilization must be within 0..1, got " + utilization);
        }
        parts = Map.copyOf(parts);
        Objects.requireNonNull(measuredAt, "measuredAt");
    }

    /** The signal made of {@code parts}, each clamped to 0..1; utilization is their maximum. */
    public static LoadSignal of(Map<String, Double> parts, Instant measuredAt) {
        Map<String, Double> clamped = new java.util.TreeMap<>();
        parts.forEach((name, value) -> clamped.put(name, clamp(value)));
        double max = clamped.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        return new LoadSignal(max, clamped, measuredAt);
    }

    /** {@code value / limit}, clamped to 0..1. */
    public static double ratio(double value, double limit) {
        return limit <= 0 ? 1 : clamp(value / limit);
    }

    private static double clamp(Double value) {
        if (value == null || value.isNaN()) {
            return 0;
        }
        return Math.max(0, Math.min(1, value));
    }
}
