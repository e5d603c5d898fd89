package io.erasure.controlplane.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.controlplane.outbox.Outbox;
import io.erasure.controlplane.run.RunService;
import io.erasure.model.contract.Topics;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.TrustedKeys;
import io.erasure.support.access.Caller;
import io.erasure.support.access.Role;
import io.erasure.support.trust.SigningProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Control signals are numbered by PostgreSQL, per scope, under the scope's row lock: a scope's numbers only grow,
 * whatever the clock of the replica or restart that issues them, and two concurrent changes of one scope publish in
 * number order, the later carrying both.
 */
class ControlSequenceIT extends ControlPlaneTestSupport {

    /** The public half of the control plane's LOCAL ONLY key (application.yml), as deletion-service trusts it. */
    private static final TrustedKeys CONTROL_PLANE_KEY = TrustedKeys.of(Map.of(
            "control-plane-local",
            new TrustedKeys.Trusted(
                    TrustedKeys.publicKey(
                            "control-plane-local", "MCowBQYDK2VwAyEAsWOAPnH82V2jzG5TuiHw8fXB9vlmYSp/EnWP/rP3LlM="),
                    EnumSet.of(Authorization.Kind.CONTROL))));

    private static final Caller OPERATOR = new Caller("operator", Set.of(Role.OPERATOR), null);

    @Autowired
    KillSwitches switches;

    @Autowired
    Outbox outbox;

    @Autowired
    ActionsLog actions;

    @Autowired
    SigningProperties signing;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    RunService runs;

    @Autowired
    ControlRepublisher republisher;

    /** A replica (or a restart) whose clock is an hour behind the last one's still numbers its signals after them. */
    @Test
    void aSignalIssuedWithAClockSteppedBackIsNumberedAfterTheEarlierOnes() {
        String dataset = registerDataset().name();
        for (String scope : List.of(dataset, ControlSignal.GLOBAL)) {
            long from = lastOutboxId();
            SteppedClock clock = new SteppedClock(Instant.now());
            KillSwitches before = new KillSwitches(jdbc, outbox, actions, signing, clock);
            transactions.executeWithoutResult(s -> before.flip(scope, false, "all clear", OPERATOR));
            clock.step(Duration.ofHours(-1));
            // a restarted control plane: nothing of the one before but the database, and its clock an hour back
            KillSwitches restarted = new KillSwitches(jdbc, outbox, actions, signing, clock);
            transactions.executeWithoutResult(s -> restarted.flip(scope, true, "incident", OPERATOR));
            transactions.executeWithoutResult(s -> restarted.flip(scope, false, "resolved", OPERATOR));

            List<ControlSignal> signals = controlMessages(scope, from);
            assertThat(signals)
                    .as(scope)
                    .extracting(ControlSignal::reason)
                    .containsExactly("all clear", "incident", "resolved");
            assertThat(signals)
                    .as(scope)
                    .extracting(ControlSignal::sequence)
                    .isSortedAccordingTo(Long::compare)
                    .doesNotHaveDuplicates();
            assertThat(signals)
                    .allSatisfy(s -> assertThat(CONTROL_PLANE_KEY.refusal(
                                    s.keyId(), Authorization.Kind.CONTROL, s.signedContent(), s.signature()))
                            .isEmpty());
        }
    }

    /** An operator engages the switch while a run of the dataset is being cancelled: the flip waits for it. */
    @Test
    void aFlipDuringACancellationOfTheSameDatasetIsNumberedAfterItAndCarriesIt() throws Exception {
        DatasetSpec spec = registerDataset();
        String runId = trigger(spec);
        long from = lastOutboxId();
        CountDownLatch announced = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> cancel = threads.submit(() -> transactions.executeWithoutResult(s -> {
                runs.cancel(runId, OPERATOR, "wrong cut-off");
                announced.countDown();
                await(commit);
            }));
            assertThat(announced.await(30, TimeUnit.SECONDS)).isTrue();
            Future<?> flip = threads.submit(() -> switches.flip(spec.name(), true, "incident", OPERATOR));
            Thread.sleep(1_000);
            boolean flipWaited = !flip.isDone();
            commit.countDown();
            cancel.get(30, TimeUnit.SECONDS);
            flip.get(30, TimeUnit.SECONDS);

            List<ControlSignal> signals = controlMessages(spec.name(), from);
            assertThat(signals).extracting(ControlSignal::reason).containsExactly("wrong cut-off", "incident");
            assertThat(signals.get(1).sequence()).isGreaterThan(signals.get(0).sequence());
            assertThat(signals.get(1).active()).isTrue();
            assertThat(signals.get(1).cancelledRuns())
                    .as("the later signal carries the cancellation")
                    .contains(RunId.of(runId));
            assertThat(flipWaited)
                    .as("the flip waited for the cancellation's transaction")
                    .isTrue();
        } finally {
            commit.countDown();
            threads.shutdownNow();
        }
    }

    /**
     * A run is cancelled while an operator's engage is being recorded: the cancellation waits, and keeps it engaged.
     */
    @Test
    void aCancellationDuringAFlipOfTheSameDatasetIsNumberedAfterItAndCarriesIt() throws Exception {
        DatasetSpec spec = registerDataset();
        String runId = trigger(spec);
        long from = lastOutboxId();
        CountDownLatch flipped = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> flip = threads.submit(() -> transactions.executeWithoutResult(s -> {
                switches.flip(spec.name(), true, "incident", OPERATOR);
                flipped.countDown();
                await(commit);
            }));
            assertThat(flipped.await(30, TimeUnit.SECONDS)).isTrue();
            Future<?> cancel = threads.submit(() -> runs.cancel(runId, OPERATOR, "wrong cut-off"));
            Thread.sleep(1_000);
            boolean cancelWaited = !cancel.isDone();
            commit.countDown();
            flip.get(30, TimeUnit.SECONDS);
            cancel.get(30, TimeUnit.SECONDS);

            List<ControlSignal> signals = controlMessages(spec.name(), from);
            assertThat(signals).extracting(ControlSignal::reason).containsExactly("incident", "wrong cut-off");
            assertThat(signals.get(1).sequence()).isGreaterThan(signals.get(0).sequence());
            assertThat(signals.get(1).active())
                    .as("the later signal keeps the switch on")
                    .isTrue();
            assertThat(signals.get(1).cancelledRuns()).contains(RunId.of(runId));
            assertThat(cancelWaited)
                    .as("the cancellation waited for the flip's transaction")
                    .isTrue();
        } finally {
            commit.countDown();
            threads.shutdownNow();
        }
    }

    /**
     * After an upgrade, the scopes whose newest message predates signing (deletion reads it as stopped, until a flip)
     * or is signed with a key rotated out are published again, signed, with their current state; once.
     */
    @Test
    void scopesWhoseNewestMessageIsNotSignedWithTheOwnKeyArePublishedAgainSigned() {
        String unsigned = registerDataset().name();
        String rotated = registerDataset().name();
        long from = lastOutboxId();
        // as V12 records them from the outbox: an unsigned message (a switch on), one signed with another key
        jdbc.update(
                "INSERT INTO kill_switches (scope, active, changed_by, changed_at, reason)"
                        + " VALUES (?, true, 'op', now(), 'incident 9')",
                unsigned);
        jdbc.update(
                "INSERT INTO control_sequences (scope, sequence, key_id, published_at) VALUES (?, 0, NULL, now())",
                unsigned);
        long future = Instant.now().plus(Duration.ofDays(1)).toEpochMilli() * 1_000;
        jdbc.update(
                "INSERT INTO control_sequences (scope, sequence, key_id, published_at)"
                        + " VALUES (?, ?, 'retired-key', now())",
                rotated,
                future);
        assertThat(switches.scopesNotSignedWithOwnKey()).contains(unsigned, rotated);

        assertThat(republisher.republishAll()).isGreaterThanOrEqualTo(2);

        assertThat(controlMessages(unsigned, from)).singleElement().satisfies(s -> {
            assertThat(s.active()).isTrue();
            assertThat(s.reason()).isEqualTo("incident 9");
            assertThat(CONTROL_PLANE_KEY.refusal(
                            s.keyId(), Authorization.Kind.CONTROL, s.signedContent(), s.signature()))
                    .isEmpty();
        });
        assertThat(controlMessages(rotated, from)).singleElement().satisfies(s -> {
            assertThat(s.active()).isFalse();
            assertThat(s.sequence()).as("after the retired key's newest").isGreaterThan(future);
            assertThat(s.keyId()).isEqualTo("control-plane-local");
        });
        assertThat(switches.scopesNotSignedWithOwnKey()).doesNotContain(unsigned, rotated);
        assertThat(republisher.republishAll()).as("a second start").isZero();
        assertThat(controlMessages(unsigned, from)).hasSize(1);
    }

    private String trigger(DatasetSpec spec) {
        Map<?, ?> run = as("operator")
                .post()
                .uri("/api/datasets/" + spec.name() + "/runs")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"dryRun\": false}")
                .exchange()
                .expectStatus()
                .isCreated()
                .returnResult(Map.class)
                .getResponseBody();
        return (String) run.get("id");
    }

    private long lastOutboxId() {
        Long id = jdbc.queryForObject("SELECT max(id) FROM outbox", Long.class);
        return id == null ? 0 : id;
    }

    /** The control messages of {@code scope} added to the outbox after {@code afterId}, in publishing order. */
    private List<ControlSignal> controlMessages(String scope, long afterId) {
        return jdbc
                .queryForList(
                        "SELECT payload FROM outbox WHERE topic = ? AND message_key = ? AND id > ? ORDER BY id",
                        String.class,
                        Topics.CONTROL,
                        scope,
                        afterId)
                .stream()
                .map(p -> json.readValue(p, EventEnvelope.class).payloadAs(ControlSignal.class))
                .toList();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A clock that stands still until stepped, as far back or forward as a test likes. */
    private static final class SteppedClock extends Clock {
        private volatile Instant now;

        SteppedClock(Instant now) {
            this.now = now;
        }

        void step(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
