package io.erasure.controlplane.forward;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * Forward deletion's meters: intake outcomes ({@code erasure.forward.intake}, by outcome: accepted, held,
 * duplicate, stale, loop), batch redeliveries, and the alert gauge {@code erasure.forward.unresolved}
 * (TOMBSTONED requests older than {@code erasure.forward.alert-after}).
 */
@Component
public class ForwardMetrics {

    public static final String INTAKE = "erasure.forward.intake";
    public static final String UNRESOLVED = "erasure.forward.unresolved";

    private final MeterRegistry meters;
    private final AtomicLong unresolved = new AtomicLong();

    public ForwardMetrics(MeterRegistry meters) {
        this.meters = meters;
        Gauge.builder(UNRESOLVED, unresolved, AtomicLong::get)
                .description("TOMBSTONED forward-deletion requests unresolved past erasure.forward.alert-after")
                .register(meters);
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

    void unresolved(long count) {
        unresolved.set(count);
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
