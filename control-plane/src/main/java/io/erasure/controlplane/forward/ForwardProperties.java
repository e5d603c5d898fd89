package io.erasure.controlplane.forward;

import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Forward deletion ({@code erasure.forward.*}).
 *
 * @param burst            requests of one aggregate type over this volume are HELD for an OPERATOR
 * @param reconcileAfter   a TOMBSTONED request unresolved this long after its tasks went out has them re-published
 * @param alertAfter       a TOMBSTONED request unresolved this long counts in {@code erasure.forward.unresolved}
 * @param retention        how long requests of an aggregate type are kept, by type; others keep
 *                         {@code defaultRetention}
 * @param defaultRetention retention of types not in {@code retention}
 * @param monthsAhead      monthly partitions of {@code deletion_requests} created ahead of the current month
 */
@ConfigurationProperties("erasure.forward")
public record ForwardProperties(
        @DefaultValue Burst burst,
        @DefaultValue("10m") Duration reconcileAfter,
        @DefaultValue("24h") Duration alertAfter,
        Map<String, Duration> retention,
        @DefaultValue("90d") Duration defaultRetention,
        @DefaultValue("2") int monthsAhead) {

    public ForwardProperties {
        requirePositive("reconcile-after", reconcileAfter);
        requirePositive("alert-after", alertAfter);
        requirePositive("default-retention", defaultRetention);
        retention = retention == null ? Map.of() : Map.copyOf(retention);
        retention.forEach((type, kept) -> requirePositive("retention." + type, kept));
        if (monthsAhead < 1 || monthsAhead > 24) {
            throw new IllegalArgumentException(
                    "erasure.forward.months-ahead must be between 1 and 24, got " + monthsAhead);
        }
    }

    /** How long requests of {@code aggregateType} are kept. */
    public Duration retentionOf(String aggregateType) {
        return retention.getOrDefault(aggregateType, defaultRetention);
    }

    /** The longest retention of any type: a month partition past it holds nothing anyone keeps. */
    public Duration longestRetention() {
        return retention.values().stream().reduce(defaultRetention, (a, b) -> a.compareTo(b) >= 0 ? a : b);
    }

    /**
     * @param maxPerWindow requests of one aggregate type accepted per window before the rest are held
     * @param window       the sliding window
     */
    public record Burst(
            @DefaultValue("1000") int maxPerWindow,
            @DefaultValue("1m") Duration window) {

        public Burst {
            if (maxPerWindow < 1) {
                throw new IllegalArgumentException(
                        "erasure.forward.burst.max-per-window must be at least 1, got " + maxPerWindow);
            }
            requirePositive("burst.window", window);
        }
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(
                    "erasure.forward." + name + " must be a positive duration, e.g. 10m; got " + value);
        }
    }
}
