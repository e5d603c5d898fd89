package io.erasure.deletion.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.deletion.AuthorizedRuns;
import io.erasure.deletion.DeletionTestSupport;
import io.erasure.model.contract.Topics;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization.Kind;
import io.erasure.model.trust.TrustedKeys;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessResourceFailureException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The newest control signal of each scope is durable and shared: replicas (each a {@link ControlState} of its own over
 * the one schema) never move it back, a restarted one starts from it, and an older signal never wins over it.
 */
class ControlStoreIT extends DeletionTestSupport {

    @Autowired
    ControlStore store;

    @Autowired
    TrustedKeys trusted;

    @Autowired
    JsonMapper json;

    private final AtomicInteger offsets = new AtomicInteger(1_000);

    @Test
    void theStoredSequenceOnlyMovesForwardWhicheverReplicaWritesInWhateverOrder() throws Exception {
        String scope = scope();
        ControlSignal engage = signed(scope, true, 10);
        assertThat(store.recordNewest(at(engage, 7)).signal()).isEqualTo(engage);
        assertThat(store.recordNewest(at(signed(scope, false, 5), 8)).signal())
                .as("an older lift")
                .isEqualTo(engage);
        assertThat(store.recordNewest(at(signed(scope, false, 10), 9)).signal())
                .as("as old")
                .isEqualTo(engage);
        assertThat(store.find(scope)).hasValueSatisfying(stored -> {
            assertThat(stored.signal()).isEqualTo(engage);
            assertThat(stored.offset()).isEqualTo(7);
        });

        // eight replicas record the numbers 11..400 each, in an order of their own, while one reads the row
        String raced = scope();
        List<Long> numbers = LongStream.rangeClosed(11, 400).boxed().toList();
        List<Long> seen = new CopyOnWriteArrayList<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService replicas = Executors.newFixedThreadPool(9);
        try {
            Future<?> reader = replicas.submit(() -> {
                while (writing.get()) {
                    store.find(raced).ifPresent(s -> seen.add(s.sequence()));
                }
            });
            List<Future<?>> writers = new ArrayList<>();
            for (int replica = 0; replica < 8; replica++) {
                List<Long> order = new ArrayList<>(numbers);
                Collections.shuffle(order);
                writers.add(replicas.submit(() -> order.forEach(n -> {
                    ControlStore.Applied newest = store.recordNewest(at(signed(raced, n % 2 == 0, n), n));
                    assertThat(newest.sequence()).isGreaterThanOrEqualTo(n);
                })));
            }
            for (Future<?> writer : writers) {
                writer.get(2, TimeUnit.MINUTES);
            }
            writing.set(false);
            reader.get(1, TimeUnit.MINUTES);
        } finally {
            replicas.shutdownNow();
        }
        assertThat(store.find(raced).map(ControlStore.Applied::signal)).hasValueSatisfying(s -> {
            assertThat(s.sequence()).isEqualTo(400);
            assertThat(s.active()).isTrue();
            assertThat(trusted.refusal(s.keyId(), Kind.CONTROL, s.signedContent(), s.signature()))
                    .as("stored as signed")
                    .isEmpty();
        });
        assertThat(seen).as("the row as another replica read it meanwhile").isSortedAccordingTo(Long::compare);
    }

    /** Two replicas: the second receives an old lift after the first applied a newer engage; it stays stopped. */
    @Test
    void aReplicaNeverAppliesALiftOlderThanWhatAnotherReplicaApplied() {
        String scope = scope();
        ControlSignal lift = AuthorizedRuns.signed(ControlSignal.dataset(scope, false, List.of(), "operator", "ok"));
        ControlSignal engage =
                AuthorizedRuns.signed(ControlSignal.dataset(scope, true, List.of(), "operator", "incident"));
        ControlState first = replica();
        ControlState second = replica();
        first.load(); // both running already: the second took the store up before the first applied the engage
        second.load();

        apply(first, engage);
        apply(second, lift);

        assertThat(second.stopped(scope))
                .as("the second replica, which only read the older lift")
                .isTrue();
        assertThat(second.stopReason(scope)).contains("incident");
        assertThat(first.stopped(scope)).isTrue();
        assertThat(store.find(scope).map(ControlStore.Applied::signal)).contains(engage);
    }

    /** A replica restarted on a topic that holds nothing of a scope (any more) starts from the stored state. */
    @Test
    void aScopeTheTopicNoLongerHoldsKeepsItsStoredState() {
        String stopped = scope();
        String cancelled = scope();
        RunId run = RunId.random();
        ControlState before = replica();
        apply(before, AuthorizedRuns.signed(ControlSignal.dataset(stopped, true, List.of(), "operator", "incident 7")));
        apply(
                before,
                AuthorizedRuns.signed(ControlSignal.dataset(cancelled, false, List.of(run), "operator", "cancel")));

        ControlState restarted = replica();
        restarted.load();
        restarted.markCaughtUp();

        assertThat(restarted.stopped(stopped)).isTrue();
        assertThat(restarted.stopReason(stopped)).contains("incident 7");
        assertThat(restarted.stopped(cancelled)).isFalse();
        assertThat(restarted.cancelled(cancelled, run)).isTrue();
    }

    /** A stored row is checked like a message: one altered in the schema (a lift written by hand) lifts nothing. */
    @Test
    void aStoredRowWhoseSignatureDoesNotMatchStopsItsScopeInsteadOfLiftingIt() {
        String scope = scope();
        apply(replica(), signed(scope, true, 10));
        jdbc.update("UPDATE control_sequences SET active = false, reason = 'all clear' WHERE scope = ?", scope);

        try {
            ControlState restarted = replica();
            restarted.load();

            assertThat(restarted.stopped(scope))
                    .as("the altered lift is refused; the scope stays stopped")
                    .isTrue();
            assertThat(restarted.stopReason(scope)).contains("stored control state of " + scope + " refused");
        } finally {
            // the schema is shared: other tests' replicas take every stored row up and count this one refused
            jdbc.update("DELETE FROM control_sequences WHERE scope = ?", scope);
        }
    }

    /** A newer signal the store cannot record is not acted on: its scope stops until it is applied, on a retry. */
    @Test
    void whileTheStoreFailsANewerSignalsScopeStopsAndTheSignalAppliesOnTheRetry() {
        String scope = scope();
        AtomicBoolean failing = new AtomicBoolean();
        ControlState replica = new ControlState(json, trusted, new SimpleMeterRegistry(), new ControlStore(jdbc, json) {
            @Override
            public Applied recordNewest(Applied applied) {
                if (failing.get()) {
                    throw new DataAccessResourceFailureException("the service schema cannot be reached");
                }
                return super.recordNewest(applied);
            }
        });
        replica.markCaughtUp();
        apply(replica, AuthorizedRuns.signed(ControlSignal.dataset(scope, false, List.of(), "operator", "running")));
        assertThat(replica.stopped(scope)).isFalse();

        RunId run = RunId.random();
        ControlSignal cancellation =
                AuthorizedRuns.signed(ControlSignal.dataset(scope, false, List.of(run), "operator", "run cancelled"));
        int offset = offsets.incrementAndGet();
        failing.set(true);
        assertThatThrownBy(() -> replica.apply(scope, 0, offset, message(cancellation)))
                .isInstanceOf(DataAccessResourceFailureException.class);
        assertThat(replica.stopped(scope))
                .as("the cancellation could not be recorded")
                .isTrue();

        failing.set(false);
        replica.apply(scope, 0, offset, message(cancellation)); // the reader's retry
        assertThat(replica.stopped(scope)).isFalse();
        assertThat(replica.cancelled(scope, run)).isTrue();
        assertThat(store.find(scope).map(ControlStore.Applied::signal)).contains(cancellation);
    }

    /**
     * A restarted replica reads the topic from its start again: an engage and the lift after it, both older than or the
     * newest it stored, leave the scope as it was, running, and count as no refusal.
     */
    @Test
    void aRestartedReplicaReadingTheTopicAgainEndsWhereItWas() {
        String scope = scope();
        List<String> messages = List.of(
                message(AuthorizedRuns.signed(ControlSignal.dataset(scope, true, List.of(), "operator", "incident"))),
                message(AuthorizedRuns.signed(ControlSignal.dataset(scope, false, List.of(), "operator", "resolved"))));
        int first = offsets.incrementAndGet();
        offsets.incrementAndGet();
        ControlState before = replica();
        for (int i = 0; i < messages.size(); i++) {
            before.apply(scope, 0, first + i, messages.get(i));
        }
        assertThat(before.stopped(scope)).isFalse();

        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ControlState restarted = new ControlState(json, trusted, meters, store);
        restarted.load();
        for (int i = 0; i < messages.size(); i++) {
            restarted.apply(scope, 0, first + i, messages.get(i));
        }
        restarted.markCaughtUp();

        assertThat(restarted.stopped(scope))
                .as("after reading the engage and the lift again")
                .isFalse();
        assertThat(meters.counter("erasure.deletion.control.refused").count()).isZero();
    }

    /**
     * A replica reading behind another learns the newer signal the other applied from the store; the messages up to it
     * that it reads then (an engage, the lift after it) leave it in the other's state.
     */
    @Test
    void aReplicaReadingBehindAnotherEndsInTheOthersState() {
        String scope = scope();
        String oldLift =
                message(AuthorizedRuns.signed(ControlSignal.dataset(scope, false, List.of(), "operator", "ok")));
        String engage =
                message(AuthorizedRuns.signed(ControlSignal.dataset(scope, true, List.of(), "operator", "incident")));
        String lift =
                message(AuthorizedRuns.signed(ControlSignal.dataset(scope, false, List.of(), "operator", "resolved")));
        int first = offsets.incrementAndGet();
        offsets.addAndGet(2);
        ControlState ahead = replica();
        ControlState behind = replica();
        behind.apply(scope, 0, first, oldLift);
        ahead.apply(scope, 0, first, oldLift);
        ahead.apply(scope, 0, first + 1, engage);
        ahead.apply(scope, 0, first + 2, lift);
        behind.apply(scope, 0, first + 1, engage);
        behind.apply(scope, 0, first + 2, lift);

        assertThat(ahead.stopped(scope)).isFalse();
        assertThat(behind.stopped(scope)).isFalse();
    }

    private ControlState replica() {
        ControlState replica = new ControlState(json, trusted, new SimpleMeterRegistry(), store);
        replica.markCaughtUp();
        return replica;
    }

    private void apply(ControlState replica, ControlSignal signal) {
        replica.apply(signal.scope(), 0, offsets.incrementAndGet(), message(signal));
    }

    private String message(ControlSignal signal) {
        return json.writeValueAsString(EventEnvelope.startChain(signal, null, Clock.systemUTC()));
    }

    private static ControlSignal signed(String scope, boolean active, long sequence) {
        return ControlSignal.dataset(scope, active, List.of(), "operator", active ? "incident" : "all clear")
                .signed(sequence, AuthorizedRuns.CONTROL_PLANE);
    }

    private static ControlStore.Applied at(ControlSignal signal, long offset) {
        return new ControlStore.Applied(signal, Topics.CONTROL, 0, signal.scope(), offset);
    }

    private static String scope() {
        return "control-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
