package io.erasure.controlplane.refused;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.controlplane.forward.RequestState;
import io.erasure.model.contract.Topics;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.task.RefusedTask;
import io.erasure.model.trust.Authorization;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * The tasks the deletion service refused as not proven authentic, as it publishes them on
 * {@code erasure.deletion.tasks.refused}, are shown per run and per forward request they claim (how many, the latest
 * reason) and change nothing else of it: a forged task must not fail a genuine run or request. Each refusal counts
 * once, however often it is delivered; a claim of a run or request that does not exist is not kept.
 */
class RefusedTasksIT extends ControlPlaneTestSupport {

    private static final Instant RECEIVED = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    RefusedTaskTotals totals;

    @Autowired
    MeterRegistry meters;

    @Test
    @SuppressWarnings("unchecked")
    void refusedTasksClaimingARunAreCountedInTheRunsViewAndFailNothing() {
        DatasetSpec spec = registerDataset();
        String runId = trigger(spec);
        RefusedTask unsigned = refusal(
                runId,
                null,
                spec.name(),
                Refusal.UNSIGNED,
                "it carries no authorization (only tasks the control plane authorized are executed)",
                null,
                0);
        RefusedTask copied = refusal(
                runId,
                null,
                spec.name(),
                "keys-not-covered",
                "2 of its 2 keys are not in part 0 of run " + runId + "'s authorized final set",
                "control-plane-local",
                1);
        RefusedTask renamed = refusal(
                runId,
                null,
                spec.name(),
                "id-mismatch",
                "its id is not the one its content gives",
                "control-plane-local",
                2);

        publish(unsigned);
        publish(copied);
        publish(unsigned); // delivered again: counted once
        publish(renamed);

        Map<String, Object> refused = await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> refusedOf(run(runId)), r -> r != null && ((Number) r.get("count")).longValue() >= 3);
        assertThat(((Number) refused.get("count")).longValue()).isEqualTo(3);
        assertThat(refused)
                .containsEntry("latestReason", renamed.reason())
                .containsEntry("latestReasonClass", "id-mismatch")
                .containsEntry("latestKind", "RUN")
                .containsEntry("latestTaskId", renamed.taskId())
                .containsEntry("latestKeyId", "control-plane-local")
                .containsEntry("latestAt", renamed.receivedAt().toString());
        Map<String, Object> run = run(runId);
        assertThat(run.get("state")).as("the run is left as it was").isEqualTo("AUDITING");
        assertThat(run.get("failureReason")).isNull();
        assertThat(totals.ofRun(runId))
                .get()
                .satisfies(t -> assertThat(t.count()).isEqualTo(3));

        // the list shows it too
        List<Map<String, Object>> listed = as("viewer")
                .get()
                .uri("/api/runs?dataset=" + spec.name())
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(List.class)
                .getResponseBody();
        assertThat(listed)
                .singleElement()
                .satisfies(r -> assertThat(refusedOf(r)).containsEntry("count", 3));
    }

    @Test
    @SuppressWarnings("unchecked")
    void refusedTasksClaimingAForwardRequestAreCountedInTheRequestsViewAndFailNothing() {
        DatasetSpec spec = registerDataset();
        String requestId = submitRequest(spec.identifierSource());
        Map<String, Object> before = request(requestId);
        assertThat(before).doesNotContainKey("refusedTasks");
        RefusedTask older = refusal(
                null,
                requestId,
                spec.name(),
                "untrusted-key",
                "it is signed by key 'intruder-1', which is not trusted here",
                "intruder-1",
                5);
        RefusedTask newer = refusal(
                null,
                requestId,
                spec.name(),
                "keys-not-covered",
                "its keys are not the keys its authorization covers",
                "control-plane-local",
                6);

        publish(newer);
        publish(older); // read after the newer one: counted, but the newer stays the latest

        Map<String, Object> view = await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> request(requestId),
                        v -> v.get("refusedTasks") instanceof Map<?, ?> r
                                && ((Number) r.get("count")).longValue() >= 2);
        Map<String, Object> refused = (Map<String, Object>) view.get("refusedTasks");
        assertThat(refused)
                .containsEntry("count", 2)
                .containsEntry("latestReason", newer.reason())
                .containsEntry("latestReasonClass", "keys-not-covered")
                .containsEntry("latestKind", "FORWARD")
                .containsEntry("latestKeyId", "control-plane-local");
        assertThat(view.get("state")).as("the request is left as it was").isEqualTo(before.get("state"));

        List<Map<String, Object>> listed = as("viewer")
                .get()
                .uri("/api/forward-requests?aggregateType=" + spec.identifierSource())
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(List.class)
                .getResponseBody();
        assertThat(listed).singleElement().satisfies(r -> {
            assertThat(r.get("id")).isEqualTo(requestId);
            assertThat((Map<String, Object>) r.get("refusedTasks")).containsEntry("count", 2);
        });
    }

    @Test
    void aRefusalClaimingARunOrRequestThatDoesNotExistIsNotKept() {
        DatasetSpec spec = registerDataset();
        String runId = trigger(spec);
        String unknownRun = "run-" + UUID.randomUUID();
        String unknownRequest = "fwd-" + UUID.randomUUID().toString().replace("-", "");

        publish(refusal(unknownRun, null, spec.name(), Refusal.UNSIGNED, "it carries no authorization", null, 7));
        publish(refusal(null, unknownRequest, spec.name(), Refusal.UNSIGNED, "it carries no authorization", null, 8));
        publish(refusal(runId, null, spec.name(), Refusal.UNSIGNED, "it carries no authorization", null, 9));

        // one partition, read in order: once the known run's is counted, the others were read
        await().atMost(Duration.ofSeconds(30)).until(() -> totals.ofRun(runId).isPresent());
        assertThat(totals.ofRun(unknownRun)).isEmpty();
        assertThat(totals.ofRequest(unknownRequest)).isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM runs WHERE id = ?", Long.class, unknownRun))
                .isZero();
    }

    @Test
    void aReportNoTrustedDeletionKeySignedIsNotShown() {
        DatasetSpec spec = registerDataset();
        String runId = trigger(spec);
        RefusedTask genuine =
                refusal(runId, null, spec.name(), Refusal.UNSIGNED, "it carries no authorization", null, 20);
        RefusedTask unsigned = new RefusedTask(
                UUID.randomUUID().toString(),
                genuine.taskId(),
                runId,
                null,
                spec.name(),
                Authorization.Kind.RUN,
                "unsigned",
                "approved by the security team, approve run " + runId + " now",
                null,
                RECEIVED.plusSeconds(21),
                Topics.DELETION_TASKS + "-0@21");
        RefusedTask otherRole = unsigned.signed(AUDIT_KEY);
        RefusedTask altered = new RefusedTask(
                genuine.refusalId(),
                genuine.taskId(),
                runId,
                null,
                spec.name(),
                Authorization.Kind.RUN,
                "unsigned",
                unsigned.reason(),
                null,
                genuine.receivedAt(),
                genuine.source(),
                genuine.signedBy(),
                genuine.signature());
        double dropped = unverifiedReports();

        publish(unsigned);
        publish(otherRole);
        publish(altered);
        publish(genuine);

        // one partition, read in order: once the genuine one is counted, the others were read
        await().atMost(Duration.ofSeconds(30)).until(() -> totals.ofRun(runId).isPresent());
        Map<String, Object> refused = refusedOf(run(runId));
        assertThat(refused).containsEntry("count", 1).containsEntry("latestReason", genuine.reason());
        assertThat(unverifiedReports() - dropped).isEqualTo(3);
    }

    private double unverifiedReports() {
        Counter counter = meters.find(RefusedTasksListener.FORGED).counter();
        return counter == null ? 0 : counter.count();
    }

    /** The deletion service's reason classes the tests use. */
    private static final class Refusal {
        static final String UNSIGNED = "unsigned";
    }

    private RefusedTask refusal(
            String runId,
            String requestId,
            String dataset,
            String reasonClass,
            String reason,
            String keyId,
            int offset) {
        String taskId = "task-" + UUID.randomUUID().toString().replace("-", "");
        return new RefusedTask(
                        UUID.randomUUID().toString(),
                        taskId,
                        runId,
                        requestId,
                        dataset,
                        runId != null ? Authorization.Kind.RUN : Authorization.Kind.FORWARD,
                        reasonClass,
                        reason,
                        keyId,
                        RECEIVED.plusSeconds(offset),
                        Topics.DELETION_TASKS + "-0@" + offset)
                .signed(DELETION_KEY);
    }

    private void publish(RefusedTask refused) {
        try {
            kafka.send(Topics.DELETION_TASKS_REFUSED, Topics.refusedTaskKey(refused), json.writeValueAsString(refused))
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
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

    private String submitRequest(String aggregateType) {
        Map<?, ?> result = as("operator")
                .post()
                .uri("/api/forward-requests")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"aggregateType\": \"" + aggregateType + "\", \"aggregateId\": \"42\", \"version\": 1}")
                .exchange()
                .expectStatus()
                .isAccepted()
                .returnResult(Map.class)
                .getResponseBody();
        assertThat(result.get("state")).isIn(RequestState.TOMBSTONED.name(), RequestState.PURGED.name());
        return (String) result.get("requestId");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> run(String runId) {
        return as("viewer")
                .get()
                .uri("/api/runs/" + runId)
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(Map.class)
                .getResponseBody();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> refusedOf(Map<String, Object> run) {
        Object counts = run.get("counts");
        return counts instanceof Map<?, ?> map ? (Map<String, Object>) map.get("refusedTasks") : null;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> request(String requestId) {
        return as("viewer")
                .get()
                .uri("/api/forward-requests/" + requestId)
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(Map.class)
                .getResponseBody();
    }
}
