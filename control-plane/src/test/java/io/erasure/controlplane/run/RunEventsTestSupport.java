package io.erasure.controlplane.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.infra.LocalEngines;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.run.RunId;
import io.erasure.model.run.RunState;
import io.erasure.support.trust.SpecDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.kafka.core.KafkaTemplate;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Drives runs the way the services do: events on {@code erasure.run.events}, sealed with the services' local keys,
 * read back from the run store. Shares the one context of {@link ControlPlaneTestSupport}.
 */
abstract class RunEventsTestSupport extends ControlPlaneTestSupport {

    static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(Instant.parse("2026-11-29T00:00:00Z"));

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    RunStore runs;

    @Autowired
    S3Client s3;

    String trigger(DatasetSpec spec, boolean dryRun, String user) {
        Map<?, ?> run = as(user).post()
                .uri("/api/datasets/" + spec.name() + "/runs")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"dryRun\": " + dryRun + "}")
                .exchange()
                .expectStatus()
                .isCreated()
                .returnResult(Map.class)
                .getResponseBody();
        assertThat(run.get("state")).isEqualTo("AUDITING");
        return (String) run.get("id");
    }

    /**
     * A first run of {@code spec} triggered by "operator", audited and validated ({@code finalCount} rows in
     * {@code taskCount} tasks), approved by "operator2" and DELETING.
     */
    String runUntilDeleting(DatasetSpec spec, long finalCount, int taskCount) {
        String runId = trigger(spec, false, "operator");
        send(event(
                runId,
                new AuditCompleted(
                        spec.name(),
                        "20261129T000000Z",
                        CUTOFF,
                        1000,
                        finalCount,
                        S3Layout.candidatesPrefix(RunId.of(runId)),
                        frozenSpec(runId))));
        awaitState(runId, RunState.VALIDATING);
        send(event(
                runId,
                new ValidationCompleted(
                        spec.name(),
                        finalCount,
                        finalCount,
                        Map.of(),
                        S3Layout.finalPrefix(RunId.of(runId)),
                        taskCount,
                        false,
                        0,
                        null,
                        "final-set-digest-of-" + runId,
                        frozenSpec(runId))));
        awaitState(runId, RunState.AWAITING_APPROVAL);
        as("operator2")
                .post()
                .uri("/api/runs/" + runId + "/approve")
                .exchange()
                .expectStatus()
                .isOk();
        send(event(runId, new TasksPublished(spec.name(), taskCount, finalCount)));
        awaitState(runId, RunState.DELETING);
        return runId;
    }

    /** An event of {@code runId}, sealed as its producer seals it ({@link #sealed}). */
    EventEnvelope event(String runId, EventPayload payload) {
        return sealed(unsealed(runId, payload));
    }

    /** An event of {@code runId} as anyone who can produce to the topic could send it: without a seal. */
    EventEnvelope unsealed(String runId, EventPayload payload) {
        return EventEnvelope.of(payload, runId, UUID.randomUUID(), Clock.systemUTC());
    }

    /** The digest of the spec {@code runId} froze, which an audit's and a validation's result must name. */
    String frozenSpec(String runId) {
        return SpecDigest.of(runs.find(runId).orElseThrow().spec());
    }

    void send(EventEnvelope event) {
        try {
            kafka.send(Topics.RUN_EVENTS, event.runId(), json.writeValueAsString(event))
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends the events in order; each is applied before the next is sent (they share the run's partition anyway). */
    void send(String runId, EventPayload... payloads) {
        for (EventPayload payload : payloads) {
            send(event(runId, payload));
        }
    }

    List<EventEnvelope> commands(String runId, Class<? extends EventPayload> type, int atLeast) {
        return published(Topics.RUN_COMMANDS, e -> runId.equals(e.runId()) && type.isInstance(e.payload()), atLeast);
    }

    RunRecord awaitState(String runId, RunState state) {
        return await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> runs.find(runId).orElseThrow(), run -> run.state() == state);
    }

    /** Waits until the run has applied events up to {@code predicate}, e.g. a batch count. */
    RunRecord awaitRun(String runId, Predicate<RunRecord> predicate) {
        return awaitRun(runId, predicate, Duration.ofSeconds(30));
    }

    /** As {@link #awaitRun(String, java.util.function.Predicate)}, for a burst whose size sets how long it may take. */
    RunRecord awaitRun(String runId, Predicate<RunRecord> predicate, Duration atMost) {
        return await().atMost(atMost)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> runs.find(runId).orElseThrow(), predicate);
    }

    String s3Receipt(String runId) {
        return s3.getObjectAsBytes(r -> r.bucket(LocalEngines.s3().bucket()).key(S3Layout.receiptKey(RunId.of(runId))))
                .asUtf8String();
    }
}
