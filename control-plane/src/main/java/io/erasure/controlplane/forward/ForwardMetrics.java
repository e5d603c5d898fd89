package io.erasure.controlplane.forward;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * Forward deletion's meters: intake outcomes ({@code erasure.forward.intake}, by outcome: accepted, held,
 * duplicate, stale, loop), batch redeliveries, the alert gauges {@code erasure.forward.unresolved}
 * (TOMBSTONED requests older than {@code erasure.forward.alert-after}) and {@value #UNRESOLVED_OLDEST} (how long
 * the oldest TOMBSTONED request has waited since its tasks went out), and {@value #TIME_TO_PURGE} (from when a
 * request's tasks went out to its PURGED: a held request's wait for approval is not counted), with the buckets of
 * the forward-deletion SLO.
 */
@Component
public class ForwardMetrics {

    public static final String INTAKE = "erasure.forward.intake";
    public static final String UNRESOLVED = "erasure.forward.unresolved";
    public static final String UNRESOLVED_OLDEST = "erasure.forward.unresolved.oldest.seconds";
    public static final String TIME_TO_PURGE = "erasure.forward.time.to.purge";
    /** The time-to-purge buckets an SLO can be set on (the chart's rules use 1 h). */
    public static final List<Duration> SLO_BUCKETS =
            List.of(Duration.ofMinutes(1), Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofHours(24));

    private final MeterRegistry meters;
    private final AtomicLong unresolved = new AtomicLong();
    private final AtomicLong unresolvedOldestSeconds = new AtomicLong();
    private final Timer timeToPurge;

    public ForwardMetrics(MeterRegistry meters) {
        this.meters = meters;
        Gauge.builder(UNRESOLVED, unresolved, AtomicLong::get)
                .description("TOMBSTONED forward-deletion requests unresolved past erasure.forward.alert-after")
                .register(meters);
        Gauge.builder(UNRESOLVED_OLDEST, unresolvedOldestSeconds, AtomicLong::get)
                .description(
                        "how long the oldest TOMBSTONED forward-deletion request has waited since it was published")
                .baseUnit("seconds")
                .register(meters);
        this.timeToPurge = Timer.builder(TIME_TO_PURGE)
                .description("from when a forward-deletion request's tasks went out to its PURGED")
                .serviceLevelObjectives(SLO_BUCKETS.toArray(Duration[]::new))
                .register(meters);
    }

    /** A request PURGED {@code after} its tasks went out. */
    void purged(Duration after) {
        timeToPurge.record(after.isNegative() ? Duration.ZERO : after);
    }

    void intake(IntakeOutcome outcome) {
        counter(INTAKE, "outcome", outcome.name().toLowerCase()).increment();
    }

    void batchRedelivered() {
        counter("erasure.forward.batches.redelivered", "kind", "batch").increment();
    }

    void duplicateEffect() {
        counter("erasure.forward.effects.duplicate", "kind", "effect").increment();
    }

    void unresolved(long count, Duration oldest) {
        unresolved.set(count);
        unresolvedOldestSeconds.set(Math.max(0, oldest.toSeconds()));
    }

    public long unresolved() {
        return unresolved.get();
    }

    public double intakeCount(IntakeOutcome outcome) {
        return counter(INTAKE, "outcome", outcome.name().toLowerCase()).count();
    }

    private Counter counter(String name, String tag, String value) {
        return Counter.builder(name).tag(tag, value).register(meters);
    }
}
