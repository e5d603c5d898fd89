package io.erasure.controlplane.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditRequested;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.event.RunCancelled;
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.event.ValidationRequested;
import io.erasure.model.run.RunId;
import io.erasure.model.run.RunState;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.TrustedKeys;
import io.erasure.support.trust.SpecDigest;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

class RunLifecycleIT extends RunEventsTestSupport {

    /** The public half of the control plane's LOCAL ONLY key (application.yml), as deletion-service trusts it. */
    private static final TrustedKeys CONTROL_PLANE_KEY = TrustedKeys.of(Map.of(
            "control-plane-local",
            new TrustedKeys.Trusted(
                    TrustedKeys.publicKey(
                            "control-plane-local", "MCowBQYDK2VwAyEAsWOAPnH82V2jzG5TuiHw8fXB9vlmYSp/EnWP/rP3LlM="),
                    EnumSet.of(Authorization.Kind.RUN))));

    @Test
    void aFirstRunWaitsForAnotherOperatorThenCompletesOnceEveryBatchIsCountedWhateverTheOrder() throws Exception {
        DatasetSpec spec = registerDataset();
        String runId = trigger(spec, false, "operator");
        assertThat(commands(runId, AuditRequested.class, 1)).hasSize(1);

        EventEnvelope audit = event(
                runId,
                new AuditCompleted(
                        spec.name(),
                        "20261129T000000Z",
                        CUTOFF,
                        1000,
                        12,
                        S3Layout.candidatesPrefix(RunId.of(runId)),
                        frozenSpec(runId)));
        send(audit);
        send(audit); // redelivered
        awaitState(runId, RunState.VALIDATING);
        send(event(
                runId,
                new ValidationCompleted(
                        spec.name(),
                        12,
                        10,
                        Map.of("reactivated", 1L, "modifiedSinceBackup", 1L),
                        S3Layout.finalPrefix(RunId.of(runId)),
                        2,
                        false,
                        0,
                        null,
                        "final-set-digest-of-" + runId,
                        frozenSpec(runId))));
        RunRecord held = awaitState(runId, RunState.AWAITING_APPROVAL);
        assertThat(held.approvalReason()).contains("first run");
        assertThat(commands(runId, ValidationRequested.class, 1)).hasSize(1);

        as("operator")
                .post()
                .uri("/api/runs/" + runId + "/approve")
                .exchange()
                .expectStatus()
                .isForbidden();
        as("owner")
                .post()
                .uri("/api/runs/" + runId + "/approve")
                .exchange()
                .expectStatus()
                .isForbidden();
        as("operator2")
                .post()
                .uri("/api/runs/" + runId + "/approve")
                .exchange()
                .expectStatus()
                .isOk();
        assertThat(commands(runId, DeletionAuthorized.class, 1))
                .singleElement()
                .satisfies(e -> assertThat(((DeletionAuthorized) e.payload()).authorizedBy())
                        .isEqualTo("operator2"));
        // signed: what deletion checks each of the run's tasks against
        Authorization signed = ((DeletionAuthorized)
                        commands(runId, DeletionAuthorized.class, 1).get(0).payload())
                .authorization();
        assertThat(signed).isNotNull();
        assertThat(CONTROL_PLANE_KEY.refusal(signed, Authorization.Kind.RUN))
                .as("a valid control-plane signature")
                .isEmpty();
        assertThat(signed.origin()).isEqualTo(runId);
        assertThat(signed.dataset()).isEqualTo(spec.name());
        assertThat(signed.setDigest()).isEqualTo("final-set-digest-of-" + runId);
        assertThat(signed.specDigest()).isEqualTo(SpecDigest.of(spec));
        assertThat(signed.basis()).isEqualTo("APPROVED");
        assertThat(signed.authorizedBy()).isEqualTo("operator2");

        // a batch result arrives before TasksPublished, and twice
        send(event(runId, batch(spec, "batch-1", 6)));
        send(event(runId, batch(spec, "batch-1", 6)));
        send(event(runId, new TasksPublished(spec.name(), 2, 10)));
        awaitState(runId, RunState.DELETING);
        send(event(runId, batch(spec, "batch-2", 4)));

        RunRecord done = awaitState(runId, RunState.COMPLETED);
        Map<?, ?> deletion = (Map<?, ?>) done.receipt().get("deletion");
        assertThat(((Number) deletion.get("deleted")).longValue()).isEqualTo(10);
        assertThat(((Number) deletion.get("batches")).longValue()).isEqualTo(2);
        assertThat(((Number) ((Map<?, ?>) deletion.get("readBack")).get("cleanBatches")).longValue())
                .isEqualTo(2);
        assertThat(done.decidedBy()).isEqualTo("operator2");
        String stored = s3Receipt(runId);
        assertThat(stored).contains(runId).contains("\"deleted\":10");

        // a stale event after completion changes nothing
        send(event(
                runId,
                new AuditCompleted(
                        spec.name(),
                        "20261129T000000Z",
                        CUTOFF,
                        1000,
                        99,
                        S3Layout.candidatesPrefix(RunId.of(runId)),
                        frozenSpec(runId))));
        TimeUnit.MILLISECONDS.sleep(500);
        assertThat(runs.find(runId).orElseThrow().state()).isEqualTo(RunState.COMPLETED);
        assertThat(runs.find(runId).orElseThrow().candidateCount()).isEqualTo(12);
        assertThat(actionsOf("run:" + runId))
                .extracting(a -> a.get("action"))
                .containsExactly("run.started", "run.approved");
    }

    @Test
    void aRunFreezesTheSpreadWindowItStartedWith() {
        DatasetSpec spec = registerDataset(b -> b.spreadOver(Duration.ofHours(6)));
        String runId = trigger(spec, false, "owner");
        as("owner")
                .put()
                .uri("/api/datasets/" + spec.name())
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(
                        spec.toBuilder().spreadOver(Duration.ofMinutes(30)).build()))
                .exchange()
                .expectStatus()
                .isOk();

        assertThat(runs.find(runId).orElseThrow().spec().spreadOver()).isEqualTo(Duration.ofHours(6));
        assertThat(commands(runId, AuditRequested.class, 1))
                .singleElement()
                .satisfies(e -> assertThat(((AuditRequested) e.payload()).spec().spreadOver())
                        .isEqualTo(Duration.ofHours(6)));
        send(event(
                runId,
                new AuditCompleted(
                        spec.name(),
                        "20261129T000000Z",
                        CUTOFF,
                        1000,
                        12,
                        S3Layout.candidatesPrefix(RunId.of(runId)),
                        frozenSpec(runId))));
        assertThat(commands(runId, ValidationRequested.class, 1))
                .singleElement()
                .satisfies(e -> assertThat(
                                ((ValidationRequested) e.payload()).spec().spreadOver())
                        .as("validation builds the tasks from the frozen spec")
                        .isEqualTo(Duration.ofHours(6)));
    }

    @Test
    void aDryRunStopsAfterValidationAndIsNeverAuthorized() {
        DatasetSpec spec = registerDataset();
        String runId = trigger(spec, true, "owner");

        send(event(
                runId,
                new AuditCompleted(
                        spec.name(),
                        "20261129T000000Z",
                        CUTOFF,
                        50,
                        5,
                        S3Layout.candidatesPrefix(RunId.of(runId)),
                        frozenSpec(runId))));
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
                        "final-set-digest-of-" + runId,
                        frozenSpec(runId))));

        RunRecord done = awaitState(runId, RunState.DRY_RUN_COMPLETED);
        assertThat(done.receipt()).containsEntry("dryRun", true);
        assertThat(commands(runId, ValidationRequested.class, 1))
                .singleElement()
                .satisfies(e ->
                        assertThat(((ValidationRequested) e.payload()).dryRun()).isTrue());
        assertThat(commands(runId, DeletionAuthorized.class, 0)).isEmpty();
    }

    @Test
    void aRunOverItsLimitWaitsAndARejectionCancelsIt() {
        DatasetSpec spec = registerDataset();
        String runId = trigger(spec, false, "owner");
        as("owner")
                .post()
                .uri("/api/datasets/" + spec.name() + "/runs")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"dryRun\": false}")
                .exchange()
                .expectStatus()
                .isEqualTo(409);

        send(event(
                runId,
                new AuditCompleted(
                        spec.name(),
                        "20261129T000000Z",
                        CUTOFF,
                        100,
                        90,
                        S3Layout.candidatesPrefix(RunId.of(runId)),
                        frozenSpec(runId))));
        awaitState(runId, RunState.VALIDATING);
        send(event(
                runId,
                new ValidationCompleted(
                        spec.name(),
                        90,
                        90,
                        Map.of(),
                        S3Layout.finalPrefix(RunId.of(runId)),
                        1,
                        true,
                        0,
                        null,
                        "final-set-digest-of-" + runId,
                        frozenSpec(runId))));
        RunRecord held = awaitState(runId, RunState.AWAITING_APPROVAL);
        assertThat(held.approvalReason()).contains("exceeds the dataset's limit");

        as("operator")
                .post()
                .uri("/api/runs/" + runId + "/reject")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"reason\": \"90% of the table is not plausible\"}")
                .exchange()
                .expectStatus()
                .isOk();

        RunRecord rejected = runs.find(runId).orElseThrow();
        assertThat(rejected.state()).isEqualTo(RunState.CANCELLED);
        assertThat(rejected.failureReason()).isEqualTo("90% of the table is not plausible");
        assertThat(commands(runId, RunCancelled.class, 1)).hasSize(1);
        assertThat(commands(runId, DeletionAuthorized.class, 0)).isEmpty();
    }

    private BatchCompleted batch(DatasetSpec spec, String batchId, long deleted) {
        return new BatchCompleted(
                spec.name(),
                "task-" + batchId,
                batchId,
                null,
                new BatchCounts(deleted, 0, 0, 0),
                ReadBackResult.CLEAN,
                0);
    }
}
