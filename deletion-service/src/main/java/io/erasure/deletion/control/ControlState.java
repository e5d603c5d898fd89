package io.erasure.deletion.control;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.TrustedKeys;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
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
 * messages (the catch-up and the listener); a message of a key older than one already applied from that key is
 * ignored, so the state never steps back. A message that cannot be read stops its scope (its key) rather than
 * being skipped: it may have been the switch turning on.
 *
 * <p>Only the control plane decides: a signal without a valid signature of a key trusted for {@code CONTROL} counts as
 * unreadable (its scope stops, whatever it says, so a forged "lift" never lifts), and a signed lift not newer
 * ({@code sequence}) than the newest signal its scope has had is ignored (a replayed old "lift" after a newer
 * "engage"); an engage always applies, since stopping is safe whatever the signal's age.
 *
 * <p>The newest signed signal of each scope is durable ({@link ControlStore}, shared by the replicas): it is recorded,
 * with the message it came in, before a newer one is acted on, and taken up before the topic is read. So "the newest
 * its scope has had" holds across restarts and replicas: after compaction a replayed old lift may be the only message
 * left of its scope, and it still lifts nothing; a scope the topic holds nothing of keeps its stored state. Messages of
 * its key up to the stored one are superseded by it: a replica reading them after it took the stored one up (on a
 * restart, or behind another replica) skips them, so an older engage among them does not stop the scope again. While
 * the store cannot be written, a newer signal's scope counts as stopped and the signal is retried (the reader throws).
 */
@Component
public class ControlState {

    private static final Logger log = LoggerFactory.getLogger(ControlState.class);

    /** The actor of the stop this service puts in place of a message it cannot read or trust. */
    private static final String UNREADABLE_ACTOR = "erasure";

    private final Map<String, ControlSignal> signals = new ConcurrentHashMap<>();
    private final Map<String, Long> appliedOffsets = new ConcurrentHashMap<>();
    /** The newest signed signal of each scope, with the message it came in. */
    private final Map<String, ControlStore.Applied> newest = new ConcurrentHashMap<>();

    private final JsonMapper json;
    private final TrustedKeys trusted;
    private final ControlStore store;
    private final String topic;
    private final Counter refused;
    private volatile boolean loaded;
    private volatile boolean caughtUp;

    public ControlState(JsonMapper json, TrustedKeys trusted, MeterRegistry meters, ControlStore store) {
        this(json, trusted, meters, store, Topics.CONTROL);
    }

    /** {@code topic}: {@code erasure.control}; another name only where tests stand a compacted topic in for it. */
    @Autowired
    public ControlState(
            JsonMapper json,
            TrustedKeys trusted,
            MeterRegistry meters,
            ControlStore store,
            @Value("${erasure.deletion.control-topic:" + Topics.CONTROL + "}") String topic) {
        this.json = json;
        this.trusted = trusted;
        this.store = store;
        this.topic = topic;
        this.refused = Counter.builder("erasure.deletion.control.refused")
                .description("control signals not applied: unsigned, forged, or older than their scope's current one")
                .register(meters);
    }

    @KafkaListener(
            topics = "${erasure.deletion.control-topic:" + Topics.CONTROL + "}",
            groupId = "deletion-control-${random.uuid}",
            properties = {"auto.offset.reset=earliest", "enable.auto.commit=false", "max.poll.records=500"})
    public void onSignal(ConsumerRecord<String, String> record) {
        apply(record.key(), record.partition(), record.offset(), record.value());
    }

    /** The control topic this reads. */
    public String topic() {
        return topic;
    }

    /**
     * Takes up the newest signal of each scope stored before (by this replica before a restart, or by another), once,
     * before any message of the topic is applied. Throws while the store cannot be read.
     */
    synchronized void load() {
        if (loaded) {
            return;
        }
        List<ControlStore.Applied> stored = store.all();
        stored.forEach(this::takeUp);
        loaded = true;
        log.info(
                "control state: {} scope(s) taken up from the store, {} stopped",
                stored.size(),
                stored.stream().filter(a -> a.signal().active()).count());
    }

    /**
     * A stored signal newer than any this replica applied for its scope: its scope's current state. The store is
     * checked like the topic: a row whose signature is not a trusted CONTROL key's (written by another hand, or signed
     * with a key since rotated out) stops its scope until a newer signed signal comes, and is not taken as the newest.
     * False for such a row.
     */
    private boolean takeUp(ControlStore.Applied stored) {
        ControlSignal signal = stored.signal();
        Optional<String> refusal =
                trusted.refusal(signal.keyId(), Authorization.Kind.CONTROL, signal.signedContent(), signal.signature());
        if (refusal.isPresent()) {
            refused.increment();
            signals.put(
                    signal.scope(),
                    stopped(
                            signal.scope(),
                            "stored control state of " + signal.scope() + " refused (" + refusal.get() + ")",
                            new IllegalArgumentException("not signed by the control plane")));
            return false;
        }
        ControlStore.Applied known = newest.get(signal.scope());
        if (known == null || stored.sequence() > known.sequence()) {
            newest.put(signal.scope(), stored);
            signals.put(signal.scope(), signal);
        }
        return true;
    }

    /**
     * Applies one message of the control topic, unless a later one of its key is applied already. Throws, leaving the
     * message to be applied again, while the store cannot be read or written; its scope counts as stopped meanwhile.
     */
    synchronized void apply(String key, int partition, long offset, String message) {
        String position = partition + "/" + key;
        Long applied = appliedOffsets.get(position);
        if (applied != null && offset <= applied) {
            return;
        }
        try {
            load();
            if (message != null) { // else a compaction tombstone: nothing to apply
                applyMessage(key, partition, offset, message);
            }
        } catch (RuntimeException e) {
            ControlSignal stop = stopped(
                    key,
                    "control message at " + partition + "@" + offset + " not applied: the control store failed",
                    e);
            signals.put(stop.scope(), stop);
            throw e;
        }
        appliedOffsets.put(position, offset);
    }

    private void applyMessage(String key, int partition, long offset, String message) {
        ControlSignal signal;
        try {
            signal = json.readValue(message, EventEnvelope.class).payloadAs(ControlSignal.class);
        } catch (JacksonException | IllegalArgumentException | IllegalStateException e) {
            put(unreadable(key, partition, offset, e));
            return;
        }
        Optional<String> refusal =
                trusted.refusal(signal.keyId(), Authorization.Kind.CONTROL, signal.signedContent(), signal.signature());
        if (refusal.isPresent()) {
            refused.increment();
            put(stopped(
                    key,
                    "control signal at " + partition + "@" + offset + " refused (" + refusal.get() + ")",
                    new IllegalArgumentException("not signed by the control plane")));
            return;
        }
        // kept apart from the signal itself: a forged message in between must not reset it
        ControlStore.Applied known = newest.get(signal.scope());
        if (known != null && signal.sequence() <= known.sequence()) {
            if (known.supersedes(topic, partition, key, offset)) {
                return; // the newest's own message or one before it, read after the newest was taken up from the store
            }
            if (!signal.active()) {
                refusedAsReplay(signal, partition, offset, known.sequence());
                return;
            }
            // an engage applies whatever its number (stopping is always safe); the store keeps the newest
            put(signal);
            return;
        }
        // recorded before it is acted on; another replica (or this one before a restart) may have applied a newer one
        ControlStore.Applied stored =
                store.recordNewest(new ControlStore.Applied(signal, topic, partition, key, offset));
        if (!takeUp(stored)) {
            return; // the store holds a newer row nobody trusted signed: its scope stays stopped
        }
        if (stored.sequence() > signal.sequence()) {
            if (stored.supersedes(topic, partition, key, offset)) {
                log.info(
                        "control: {} is {} as another replica applied it ({} by {})",
                        stored.signal().scope(),
                        stored.signal().active() ? "STOPPED" : "running",
                        stored.signal().reason(),
                        stored.signal().actor());
                return; // this replica reads behind the one that applied the newer signal
            }
            if (!signal.active()) {
                refusedAsReplay(signal, partition, offset, stored.sequence());
                return;
            }
            put(signal); // an older engage: applies, as above
            return;
        }
        put(signal);
    }

    private void refusedAsReplay(ControlSignal lift, int partition, long offset, long newest) {
        refused.increment();
        log.warn(
                "control signal lifting {} at {}@{} issued at {} is not newer than the newest applied ({}): ignored"
                        + " (a replay)",
                lift.scope(),
                partition,
                offset,
                lift.sequence(),
                newest);
    }

    private void put(ControlSignal signal) {
        signals.put(signal.scope(), signal);
        log.info(
                "control: {} is {} ({} by {})",
                signal.scope(),
                signal.active() ? "STOPPED" : "running",
                signal.reason(),
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
        log.error(
                "{} (key {}): {} counts as STOPPED until a readable message replaces it: {}",
                reason,
                key,
                signal.scope(),
                cause.getMessage());
        return signal;
    }

    /** Called once the topic has been read to the end offsets it had when this replica started. */
    void markCaughtUp() {
        caughtUp = true;
        log.info(
                "control state caught up: {} scope(s), {} stopped",
                signals.size(),
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
        return signal == null
                ? "running"
                : "kill switch on " + signal.scope() + " (" + signal.reason() + " by " + signal.actor() + ")";
    }

    private boolean active(String scope) {
        ControlSignal signal = signals.get(scope);
        return signal != null && signal.active();
    }
}
