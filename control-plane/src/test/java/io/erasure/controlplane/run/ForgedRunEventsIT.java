package io.erasure.controlplane.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditFailed;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.event.ValidationFailed;
import io.erasure.model.event.ValidationRequested;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import io.erasure.model.run.RunState;
import io.erasure.model.trust.EventSeals;
import io.erasure.support.trust.SpecDigest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 18 item 6: the event bus is a trust boundary. Anyone may produce to {@code erasure.run.events}; only a result
 * sealed by the key trusted for its producer's role, of its run's dataset and frozen spec, moves a run. Each forged
 * event here would have moved the run before (an UNDER_LIMIT authorization over any final set, a later cut-off signed
 * into the authorization, a run completed without deleting, which lifts the next run's four-eyes hold); now it changes
 * nothing but {@code erasure.run.events.refused}, and the genuine event still applies after it.
 */
class ForgedRunEventsIT extends RunEventsTestSupport {

    private static final String BASELINES = """
            SELECT count(*) FROM runs b JOIN run_batch_totals t ON t.run_id = b.id AND t.dataset = b.dataset
            WHERE b.dataset = ? AND b.state = 'COMPLETED' AND NOT b.dry_run AND t.deleted > 0""";

    private static final Duration SETTLE = Duration.ofSeconds(1);

    @Autowired
    MeterRegistry meters;

    @Test
    void aForgedValidationUnderTheLimitAuthorizesNothingTheGenuineOneDoes() throws Exception {
        DatasetSpec spec = registerDataset();
        deletedOnce(spec); // a baseline: the next run of the same spec needs no approval under its limit
        String runId = trigger(spec, false, "operator");
        send(event(runId, audited(spec, runId, CUTOFF)));
        awaitState(runId, RunState.VALIDATING);
        // validation-service's own event id for this run's result (ValidationJobs): the forgery comes first with it
        UUID genuineId = DeterministicId.nameBasedUuid("validation-event", runId, "ValidationCompleted");

        ValidationCompleted forged = new ValidationCompleted(
                spec.name(),
                3,
                3,
                Map.of(),
                S3Layout.finalPrefix(RunId.of(runId)),
                1,
                false,
                0,
                null,
                "digest-of-a-final-set-the-attacker-wrote",
                frozenSpec(runId));
        refusedWith(
                "ValidationCompleted",
                EventSeals.UNSEALED,
                () -> send(unsealed(runId, forged).withEventId(genuineId)));
        refusedWith(
                "ValidationCompleted",
                EventSeals.NOT_GRANTED,
                () -> send(unsealed(runId, forged).sealedWith(AUDIT_KEY))); // a trusted key, of another role
        refusedWith(
                "ValidationCompleted",
                EventSeals.NOT_GRANTED,
                () -> send(unsealed(runId, forged).sealedWith(DELETION_KEY)));
        refusedWith(
                "ValidationCompleted",
                EventSeals.BAD_SEAL,
                () -> send(tampered(
                        event(runId, forged),
                        new ValidationCompleted(
                                spec.name(),
                                2,
                                2,
                                Map.of(),
                                S3Layout.finalPrefix(RunId.of(runId)),
                                1,
                                false,
                                0,
                                null,
                                "digest-of-a-final-set-the-attacker-wrote",
                                frozenSpec(runId)))));
        refusedWith(
                "ValidationCompleted",
                RunEventGate.WRONG_SPEC,
                () -> send(event(
                        runId,
                        new ValidationCompleted(
                                spec.name(),
                                3,
                                3,
                                Map.of(),
                                S3Layout.finalPrefix(RunId.of(runId)),
                                1,
                                false,
                                0,
                                null,
                                "final-set-digest",
                                SpecDigest.of(
                                        spec.toBuilder().table("another_table").build())))));
        refusedWith(
                "ValidationFailed",
                EventSeals.UNSEALED,
                () -> send(unsealed(runId, new ValidationFailed(spec.name(), "forged failure"))));
        refusedWith(
                "TasksPublished",
                EventSeals.UNSEALED,
                () -> send(unsealed(runId, new TasksPublished(spec.name(), 0, 0))));
        TimeUnit.MILLISECONDS.sleep(SETTLE.toMillis());

        RunRecord untouched = runs.find(runId).orElseThrow();
        assertThat(untouched.state()).as("no forged result moves the run").isEqualTo(RunState.VALIDATING);
        assertThat(untouched.finalCount()).isNull();
        assertThat(untouched.counts()).doesNotContainKey("validation");
        assertThat(commands(runId, DeletionAuthorized.class, 0))
                .as("nothing authorized")
                .isEmpty();

        send(sealed(unsealed(
                        runId,
                        new ValidationCompleted(
                                spec.name(),
                                5,
                                5,
                                Map.of(),
                                S3Layout.finalPrefix(RunId.of(runId)),
                                1,
                                false,
                                0,
                                null,
                                "final-set-digest-of-" + runId,
                                frozenSpec(runId)))
                .withEventId(genuineId)));
        RunRecord authorized = awaitState(runId, RunState.AUTHORIZED);
        assertThat(authorized.finalCount()).isEqualTo(5);
        DeletionAuthorized command = (DeletionAuthorized)
                commands(runId, DeletionAuthorized.class, 1).get(0).payload();
        assertThat(command.basis()).isEqualTo(DeletionAuthorized.Basis.UNDER_LIMIT);
        assertThat(command.authorization().setDigest())
                .as("the genuine final set, not the forged one")
                .isEqualTo("final-set-digest-of-" + runId);
    }

    @Test
    void aForgedAuditWithALaterCutoffIsNeverSignedTheGenuineCutoffIs() throws Exception {
        DatasetSpec spec = registerDataset();
        String runId = trigger(spec, false, "operator");
        CutoffTimestamp later = CutoffTimestamp.ofMicros(CUTOFF.micros() + TimeUnit.DAYS.toMicros(30));

        refusedWith("AuditCompleted", EventSeals.UNSEALED, () -> send(unsealed(runId, audited(spec, runId, later))));
        refusedWith(
                "AuditCompleted",
                EventSeals.NOT_GRANTED,
                () -> send(unsealed(runId, audited(spec, runId, later)).sealedWith(VALIDATION_KEY)));
        refusedWith(
                "AuditCompleted",
                EventSeals.BAD_SEAL,
                () -> send(tampered(event(runId, audited(spec, runId, CUTOFF)), audited(spec, runId, later))));
        refusedWith(
                "AuditCompleted",
                RunEventGate.WRONG_SPEC,
                () -> send(event(
                        runId,
                        new AuditCompleted(
                                spec.name(),
                                "20261129T000000Z",
                                later,
                                1000,
                                5,
                                S3Layout.candidatesPrefix(RunId.of(runId)),
                                null))));
        refusedWith(
                "AuditCompleted",
                RunEventGate.WRONG_DATASET,
                () -> send(event(
                        runId,
                        new AuditCompleted(
                                "another-dataset",
                                "20261129T000000Z",
                                later,
                                1000,
                                5,
                                S3Layout.candidatesPrefix(RunId.of(runId)),
                                frozenSpec(runId)))));
        refusedWith(
                "AuditFailed",
                EventSeals.UNSEALED,
                () -> send(unsealed(runId, new AuditFailed(spec.name(), "forged"))));
        TimeUnit.MILLISECONDS.sleep(SETTLE.toMillis());

        RunRecord untouched = runs.find(runId).orElseThrow();
        assertThat(untouched.state()).isEqualTo(RunState.AUDITING);
        assertThat(untouched.cutoffMicros()).as("no cut-off recorded").isNull();
        assertThat(commands(runId, ValidationRequested.class, 0)).isEmpty();

        send(event(runId, audited(spec, runId, CUTOFF)));
        assertThat(awaitState(runId, RunState.VALIDATING).cutoffMicros()).isEqualTo(CUTOFF.micros());
        assertThat(((ValidationRequested) commands(runId, ValidationRequested.class, 1)
                                .get(0)
                                .payload())
                        .cutoff())
                .isEqualTo(CUTOFF);
        send(event(runId, validated(spec, runId, 5)));
        awaitState(runId, RunState.AWAITING_APPROVAL);
        as("operator2")
                .post()
                .uri("/api/runs/" + runId + "/approve")
                .exchange()
                .expectStatus()
                .isOk();
        DeletionAuthorized command = (DeletionAuthorized)
                commands(runId, DeletionAuthorized.class, 1).get(0).payload();
        assertThat(command.authorization().cutoffMicros())
                .as("the cut-off the control plane signs")
                .isEqualTo(CUTOFF.micros());
    }

    @Test
    void aForgedBatchNeitherCompletesTheRunNorMakesItABaseline() throws Exception {
        DatasetSpec spec = registerDataset();
        String runId = runUntilDeleting(spec, 5, 1);
        BatchCompleted forged = batch(spec, runId, 5);

        refusedWith("BatchCompleted", EventSeals.UNSEALED, () -> send(unsealed(runId, forged)));
        refusedWith(
                "BatchCompleted",
                EventSeals.NOT_GRANTED,
                () -> send(unsealed(runId, forged).sealedWith(VALIDATION_KEY)));
        refusedWith(
                "BatchCompleted",
                RunEventGate.WRONG_DATASET,
                () -> send(event(
                        runId,
                        new BatchCompleted(
                                "another-dataset",
                                "task-x",
                                "batch-x",
                                null,
                                new BatchCounts(5, 0, 0, 0),
                                ReadBackResult.CLEAN,
                                0))));
        refusedWith(
                "BatchCompleted",
                RunEventGate.WRONG_DATASET,
                () -> send(event(
                        runId,
                        new BatchCompleted(
                                spec.name() + "--not-a-copy",
                                "task-y",
                                "batch-y",
                                null,
                                new BatchCounts(5, 0, 0, 0),
                                ReadBackResult.CLEAN,
                                0,
                                spec.name(),
                                0,
                                null))));
        refusedWith(
                "BatchFailed",
                EventSeals.UNSEALED,
                () -> send(unsealed(
                        runId, new BatchFailed(spec.name(), "task-z", "batch-z", null, "forged failure", false))));
        TimeUnit.MILLISECONDS.sleep(SETTLE.toMillis());

        RunRecord untouched = runs.find(runId).orElseThrow();
        assertThat(untouched.state()).as("not completed, not failed").isEqualTo(RunState.DELETING);
        assertThat(untouched.batchesCompleted()).isZero();
        assertThat(untouched.counts()).doesNotContainKey("deletion");
        assertThat(baselines(spec))
                .as("what RunStore.baseline reads: no completed run of the dataset deleted a row")
                .isZero();

        send(event(runId, forged));
        RunRecord done = awaitState(runId, RunState.COMPLETED);
        assertThat(((Number) ((Map<?, ?>) done.receipt().get("deletion")).get("deleted")).longValue())
                .isEqualTo(5);
        assertThat(baselines(spec)).isOne();
        // and only now does the next run of the same spec go on without an OPERATOR
        String next = trigger(spec, false, "operator");
        send(event(next, audited(spec, next, CUTOFF)));
        awaitState(next, RunState.VALIDATING);
        send(event(next, validated(spec, next, 5)));
        awaitState(next, RunState.AUTHORIZED);
    }

    /** Completed runs of {@code spec}'s dataset that deleted rows: the runs {@link RunStore#baseline} picks from. */
    private long baselines(DatasetSpec spec) {
        return jdbc.queryForObject(BASELINES, Long.class, spec.name());
    }

    @Test
    void aForgedForwardBatchIsRefusedToo() {
        BatchCompleted forged = new BatchCompleted(
                "some-dataset",
                "task-f",
                "batch-f",
                "request-" + UUID.randomUUID(),
                new BatchCounts(1, 0, 0, 0),
                ReadBackResult.CLEAN,
                0);
        refusedWith(
                "BatchCompleted",
                EventSeals.UNSEALED,
                () -> produce(
                        Topics.RUN_EVENTS,
                        forged.requestId(),
                        EventEnvelope.of(forged, null, UUID.randomUUID(), Clock.systemUTC())));
        refusedWith(
                "unknown", RunEventGate.UNREADABLE, () -> produce(Topics.RUN_EVENTS, "x", "{\"not\": \"an event\"}"));
    }

    @Test
    void aValidationWithoutAFinalSetDigestFailsTheRunAskingForAnUpgrade() {
        DatasetSpec spec = registerDataset();
        String runId = trigger(spec, false, "operator");
        send(event(runId, audited(spec, runId, CUTOFF)));
        awaitState(runId, RunState.VALIDATING);

        send(event(
                runId,
                new ValidationCompleted(
                        spec.name(),
                        5,
                        5,
                        Map.of(),
                        S3Layout.finalPrefix(RunId.of(runId)),
                        1,
                        false,
                        0,
                        null,
                        null,
                        frozenSpec(runId))));

        RunRecord failed = awaitState(runId, RunState.FAILED);
        assertThat(failed.failureReason())
                .contains("no final-set digest")
                .contains("upgrade validation-service and start a new run");
        assertThat(commands(runId, DeletionAuthorized.class, 0)).isEmpty();
    }

    /** Runs {@code send} and waits until it is refused for {@code reason} (counted once more for {@code type}). */
    private void refusedWith(String type, String reason, Runnable send) {
        double before = refused(type, reason);
        send.run();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> refused(type, reason) >= before + 1);
    }

    private double refused(String type, String reason) {
        Counter counter = meters.find(RunEventGate.REFUSED)
                .tag("type", type)
                .tag("reason", reason)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    /** {@code genuine}'s seal on another payload: what an attacker who altered the event in flight would send. */
    private static EventEnvelope tampered(EventEnvelope genuine, EventPayload payload) {
        return new EventEnvelope(
                genuine.eventId(),
                genuine.eventType(),
                genuine.schemaVersion(),
                genuine.occurredAt(),
                genuine.originChainId(),
                genuine.runId(),
                payload,
                genuine.seal());
    }

    private void produce(String topic, String key, Object message) {
        try {
            kafka.send(topic, key, message instanceof String text ? text : json.writeValueAsString(message))
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private AuditCompleted audited(DatasetSpec spec, String runId, CutoffTimestamp cutoff) {
        return new AuditCompleted(
                spec.name(),
                "20261129T000000Z",
                cutoff,
                1000,
                5,
                S3Layout.candidatesPrefix(RunId.of(runId)),
                frozenSpec(runId));
    }

    private ValidationCompleted validated(DatasetSpec spec, String runId, long rows) {
        return new ValidationCompleted(
                spec.name(),
                rows,
                rows,
                Map.of(),
                S3Layout.finalPrefix(RunId.of(runId)),
                1,
                false,
                0,
                null,
                "final-set-digest-of-" + runId,
                frozenSpec(runId));
    }

    private static BatchCompleted batch(DatasetSpec spec, String runId, long deleted) {
        return new BatchCompleted(
                spec.name(),
                "task-" + runId,
                "batch-" + runId,
                null,
                new BatchCounts(deleted, 0, 0, 0),
                ReadBackResult.CLEAN,
                0);
    }

    /** A first run of {@code spec}, approved and completed with 5 rows deleted by genuine events. */
    private void deletedOnce(DatasetSpec spec) {
        String runId = runUntilDeleting(spec, 5, 1);
        send(event(runId, batch(spec, runId, 5)));
        awaitState(runId, RunState.COMPLETED);
    }
}
