package io.erasure.controlplane.run;

import io.erasure.model.event.EventEnvelope;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.EventSeals;
import io.erasure.model.trust.TrustedKeys;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * What the control plane lets in from {@code erasure.run.events}: only events sealed by a key it trusts for their
 * producer's role ({@link EventSeals}: audit results {@code AUDIT_RESULT}, validation's {@code VALIDATION_RESULT},
 * batches {@code BATCH_RESULT}), and once their run is known, only results of that run's dataset and frozen spec
 * ({@link RunProgress}). Anyone who can produce to the topic could otherwise authorize a run under its limit over any
 * final set, sign a later cut-off or complete a run that deleted nothing.
 *
 * <p>A refused event changes nothing, not even the record of applied event ids (a forged copy of a genuine event's id
 * never shadows it): it is logged at WARN with the reason and counted in {@value #REFUSED}, tagged by {@code type} (the
 * event type) and {@code reason} ({@link EventSeals}' reasons, {@link #WRONG_DATASET}, {@link #WRONG_SPEC},
 * {@link #UNREADABLE}).
 *
 * <p>Starting without a trusted key for each of the three grants fails, naming {@code erasure.signing.trusted-keys}: no
 * run could ever advance.
 */
@Component
public class RunEventGate {

    /** The counter of refused events. */
    public static final String REFUSED = "erasure.run.events.refused";
    /** A sealed result of another dataset than its run's (or of a copy the run's spec does not have). */
    public static final String WRONG_DATASET = "wrong_dataset";
    /** A sealed audit or validation of another spec than the one its run froze (or naming none). */
    public static final String WRONG_SPEC = "wrong_spec";
    /** A message that is not an event at all. */
    public static final String UNREADABLE = "unreadable";

    /** The grants the control plane needs a trusted key for: without one, its producer's results are never applied. */
    static final Set<Authorization.Kind> NEEDED = EnumSet.of(
            Authorization.Kind.AUDIT_RESULT, Authorization.Kind.VALIDATION_RESULT, Authorization.Kind.BATCH_RESULT);

    private static final Logger log = LoggerFactory.getLogger(RunEventGate.class);

    private final TrustedKeys trusted;
    private final MeterRegistry meters;

    public RunEventGate(TrustedKeys trusted, MeterRegistry meters) {
        this.trusted = trusted;
        this.meters = meters;
        Map<String, Set<Authorization.Kind>> grants = trusted.grants();
        List<String> missing = new ArrayList<>();
        for (Authorization.Kind kind : NEEDED) {
            if (grants.values().stream().noneMatch(granted -> granted.contains(kind))) {
                missing.add(kind.name());
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("erasure.signing.trusted-keys has no key granted " + missing + ", so no"
                    + " run could ever advance (the control plane applies only sealed results on erasure.run.events):"
                    + " set erasure.signing.trusted-keys.<key-id>.public-key and .grants for audit-service's key"
                    + " (AUDIT_RESULT), validation-service's (VALIDATION_RESULT) and deletion-service's (BATCH_RESULT);"
                    + " trusted now: " + grants);
        }
        log.info("run events are applied only when sealed by a trusted key: {}", grants);
    }

    /**
     * True when {@code event}'s seal is valid for its type; otherwise refuses it (logged and counted) and says false.
     */
    public boolean admit(EventEnvelope event) {
        Optional<EventSeals.Refusal> refusal = EventSeals.refusal(event, trusted);
        refusal.ifPresent(why -> refuse(event, why.reason(), why.detail()));
        return refusal.isEmpty();
    }

    /**
     * Refuses {@code event} for {@code reason}: logged at WARN with {@code detail} and counted; nothing else changes.
     */
    public void refuse(EventEnvelope event, String reason, String detail) {
        log.warn(
                "{} {} of run {} refused ({}): {}; it changes nothing",
                event.eventType(),
                event.eventId(),
                event.runId() == null ? "(none)" : event.runId(),
                reason,
                detail);
        counter(event.eventType(), reason).increment();
    }

    /** Counts a message on {@code erasure.run.events} that is not an event (the listener logs it). */
    public void unreadable() {
        counter("unknown", UNREADABLE).increment();
    }

    private Counter counter(String type, String reason) {
        return Counter.builder(REFUSED)
                .description("events on erasure.run.events refused: unsealed, badly sealed, sealed by a key not granted"
                        + " their type, or not of their run's dataset and spec")
                .tag("type", type)
                .tag("reason", reason)
                .register(meters);
    }
}
