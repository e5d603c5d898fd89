package io.erasure.deletion.control;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.TrustedKeys;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The kill switches and cancellations of the compacted {@code erasure.control} topic. Every replica
 * reads the whole topic with a group of its own (from the start on every boot) and sees each flip within a
 * poll.
 *
 * <p>Fails closed: until {@link ControlCatchUp} has read the topic to its end once, every dataset counts as
 * stopped, so a restarted replica never deletes on a state it has not read yet. Two readers may apply the same
 * messages (the catch-up and the listener); a message older than one already applied from its partition is
 * ignored, so the state never steps back. A message that cannot be read stops its scope (its key) rather than
 * being skipped: it may have been the switch turning on.
 *
 * <p>Only the control plane decides: a signal without a valid signature of a key trusted for {@code CONTROL} counts as
 * unreadable (its scope stops, whatever it says, so a forged "lift" never lifts), and a signed lift not newer
 * ({@code sequence}) than the newest signal its scope has had is ignored (a replayed old "lift" after a newer
 * "engage"); an engage always applies, since stopping is safe whatever the signal's age or its signer's clock.
 */
@Component
public class ControlState {

    private static final Logger log = LoggerFactory.getLogger(ControlState.class);

    /** The actor of the stop this service puts in place of a message it cannot read or trust. */
    private static final String UNREADABLE_ACTOR = "erasure";

    private final Map<String, ControlSignal> signals = new ConcurrentHashMap<>();
    private final Map<Integer, Long> appliedOffsets = new ConcurrentHashMap<>();
    private final Map<String, Long> appliedSequences = new ConcurrentHashMap<>();
    private final JsonMapper json;
    private final TrustedKeys trusted;
    private final Counter refused;
    private volatile boolean caughtUp;

    public ControlState(JsonMapper json, TrustedKeys trusted, MeterRegistry meters) {
        this.json = json;
        this.trusted = trusted;
        this.refused = Counter.builder("erasure.deletion.control.refused")
                .description("control signals not applied: unsigned, forged, or older than their scope's current one")
                .register(meters);
    }

    @KafkaListener(topics = Topics.CONTROL, groupId = "deletion-control-${random.uuid}",
            properties = {"auto.offset.reset=earliest", "enable.auto.commit=false", "max.poll.records=500"})
    public void onSignal(ConsumerRecord<String, String> record) {
        apply(record.key(), record.partition(), record.offset(), record.value());
    }

    /** Applies one message of the control topic, unless a later one of its partition is applied already. */
    synchronized void apply(String key, int partition, long offset, String message) {
        Long applied = appliedOffsets.get(partition);
        if (applied != null && offset <= applied) {
            return;
        }
        appliedOffsets.put(partition, offset);
        if (message == null) {
            return; // a compaction tombstone: nothing to apply
        }
        ControlSignal signal;
        boolean read = true;
        try {
            signal = json.readValue(message, EventEnvelope.class).payloadAs(ControlSignal.class);
        } catch (JacksonException | IllegalArgumentException | IllegalStateException e) {
            signal = unreadable(key, partition, offset, e);
            read = false;
        }
        if (read) {
            Optional<String> refusal = trusted.refusal(signal.keyId(), Authorization.Kind.CONTROL, signal.signedContent(),
                    signal.signature());
            if (refusal.isPresent()) {
                refused.increment();
                signal = stopped(key, "control signal at " + partition + "@" + offset + " refused (" + refusal.get()
                        + ")", new IllegalArgumentException("not signed by the control plane"));
            } else {
                // kept apart from the signal itself: a forged message in between must not reset it
                long newest = appliedSequences.getOrDefault(signal.scope(), -1L);
                if (!signal.active() && signal.sequence() <= newest) {
                    refused.increment();
                    log.warn("control signal lifting {} at {}@{} issued at {} is not newer than the newest applied ({}):"
                            + " ignored (a replay)", signal.scope(), partition, offset, signal.sequence(), newest);
                    return;
                }
                // an engage applies whatever its number (stopping is always safe, also across control-plane clocks)
                appliedSequences.put(signal.scope(), Math.max(newest, signal.sequence()));
            }
        }
        signals.put(signal.scope(), signal);
        log.info("control: {} is {} ({} by {})", signal.scope(), signal.active() ? "STOPPED" : "running", signal.reason(),
                signal.actor());
    }

    /** The scope the message's key names (or every scope, when the key names none) stopped: fail closed. */
    private static ControlSignal unreadable(String key, int partition, long offset, RuntimeException cause) {
        return stopped(key, "unreadable control message at " + partition + "@" + offset, cause);
    }

    private static ControlSignal stopped(String key, String reason, RuntimeException cause) {
        ControlSignal signal;
        try {
            signal = new ControlSignal(key, true, List.of(), UNREADABLE_ACTOR, reason);
        } catch (IllegalArgumentException | NullPointerException notAScope) {
            signal = ControlSignal.global(true, UNREADABLE_ACTOR, reason);
        }
        log.error("{} (key {}): {} counts as STOPPED until a readable message replaces it: {}", reason, key,
                signal.scope(), cause.getMessage());
        return signal;
    }

    /** Called once the topic has been read to the end offsets it had when this replica started. */
    void markCaughtUp() {
        caughtUp = true;
        log.info("control state caught up: {} scope(s), {} stopped", signals.size(),
                signals.values().stream().filter(ControlSignal::active).count());
    }

    public boolean caughtUp() {
        return caughtUp;
    }

    /** True while the global switch or the dataset's switch is on, and before the control state is caught up. */
    public boolean stopped(String dataset) {
        return !caughtUp || active(ControlSignal.GLOBAL) || active(dataset);
    }

    public boolean cancelled(String dataset, RunId runId) {
        ControlSignal signal = signals.get(dataset);
        return runId != null && signal != null && signal.cancels(runId);
    }

    /** Why {@link #stopped} is true, for logs. */
    public String stopReason(String dataset) {
        if (!caughtUp) {
            return "control state not read to its end yet";
        }
        ControlSignal signal = active(ControlSignal.GLOBAL) ? signals.get(ControlSignal.GLOBAL) : signals.get(dataset);
        return signal == null ? "running" : "kill switch on " + signal.scope() + " (" + signal.reason() + " by "
                + signal.actor() + ")";
    }

    private boolean active(String scope) {
        ControlSignal signal = signals.get(scope);
        return signal != null && signal.active();
    }
}
