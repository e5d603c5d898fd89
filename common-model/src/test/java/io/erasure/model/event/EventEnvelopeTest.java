package io.erasure.model.event;

import static io.erasure.model.Fixtures.CUTOFF;
import static io.erasure.model.Fixtures.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import io.erasure.model.Fixtures;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class EventEnvelopeTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-01-31T02:05:00.000001Z"), ZoneOffset.UTC);
    private static final UUID CHAIN = UUID.fromString("00000000-0000-0000-0000-00000000c4a1");

    private static List<EventPayload> samples() {
        return List.of(
                new AuditRequested(Fixtures.orders(), Fixtures.customers(), false),
                new ValidationRequested(Fixtures.orders(), Fixtures.customers(), CUTOFF, 120, 10_000, true),
                new DeletionAuthorized("orders", DeletionAuthorized.Basis.APPROVED, "bob", null),
                new RunCancelled("orders", "alice", "wrong identifier source"),
                new AuditCompleted(
                        "orders", "20240131T020000Z", CUTOFF, 10_000, 120, "runs/run-1/candidates/", "spec-digest"),
                new AuditFailed("orders", "manifest missing"),
                new ValidationCompleted(
                        "orders",
                        120,
                        100,
                        Map.of("newer_than_cutoff", 15L, "already_absent", 5L),
                        "runs/run-1/final/",
                        1,
                        false),
                new ValidationFailed("orders", "store unreachable"),
                new TasksPublished("orders", 1, 100),
                new BatchCompleted(
                        "orders", "task-1", "task-1-b0", null, new BatchCounts(97, 2, 1, 0), ReadBackResult.CLEAN, 0),
                new BatchFailed("orders", "task-1", "task-1-b1", null, "timeout", true),
                new LookupResolved(
                        "orders", "task-2", "task-2-b0", "req-1", new LookupResolution(List.of("task-3"), 4, null)),
                new AuditUnit(
                        Fixtures.orders(),
                        "backups/orders/20240131T020000Z/manifest.json",
                        "backups/orders/20240131T020000Z/part-00003.jsonl.gz",
                        3,
                        8,
                        "backups/customers/20240131T010000Z/manifest.json",
                        CUTOFF),
                ControlSignal.dataset("orders", true, List.of(RunId.of("run-1")), "oncall", "incident 42"),
                new ForwardDeletionRequested(
                        "customers",
                        "42",
                        3,
                        Instant.parse("2024-01-31T01:00:00Z"),
                        Map.of("accounts", List.of("a-1", "a-2")),
                        "crm"));
    }

    @Test
    void anAuditCompletedOfAnAuditServiceBeforeDeletedNotPurgedReadsAsNoneAndWritesAsBefore() {
        String json = """
                {"dataset": "orders", "snapshot": "20240131T020000Z", "cutoff": %d, "rowsScanned": 10000,
                 "candidateCount": 120, "candidatesPrefix": "runs/run-1/candidates/", "specDigest": "d"}""";
        AuditCompleted old = JSON.readValue(json.formatted(CUTOFF.micros()), AuditCompleted.class);

        assertThat(old.deletedNotPurged()).isZero();
        assertThat(JSON.readTree(JSON.writeValueAsString(old)).has("deletedNotPurged"))
                .as("absent when 0, so a control plane that predates it verifies the seal as before")
                .isFalse();
        AuditCompleted withTombstones =
                new AuditCompleted("orders", "20240131T020000Z", CUTOFF, 10_000, 120, "runs/run-1/candidates/", "d", 7);
        assertThat(JSON.readValue(JSON.writeValueAsString(withTombstones), AuditCompleted.class))
                .isEqualTo(withTombstones);
        assertThatThrownBy(() -> new AuditCompleted(
                        "orders", "20240131T020000Z", CUTOFF, 10_000, 120, "runs/run-1/candidates/", "d", -1))
                .hasMessageContaining("deletedNotPurged");
    }

    @Test
    void everyPayloadRoundTripsWithItsConcreteType() {
        for (EventPayload payload : samples()) {
            String runId = payload instanceof RunScoped || payload instanceof BatchCompleted ? "run-1" : null;
            EventEnvelope envelope = EventEnvelope.of(payload, runId, CHAIN, CLOCK);
            String json = JSON.writeValueAsString(envelope);

            EventEnvelope back = JSON.readValue(json, EventEnvelope.class);
            assertThat(back).as(json).isEqualTo(envelope);
            assertThat(back.payload()).isExactlyInstanceOf(payload.getClass());
            assertThat(back.eventType()).isEqualTo(payload.getClass().getSimpleName());
        }
    }

    @Test
    void jsonHasExactlyTheEnvelopeFields() {
        EventEnvelope envelope = EventEnvelope.of(new TasksPublished("orders", 3, 250), "run-1", CHAIN, CLOCK);
        JsonNode tree = JSON.readTree(JSON.writeValueAsString(envelope));
        assertThat(tree.propertyNames())
                .containsExactlyInAnyOrder(
                        "eventId", "eventType", "schemaVersion", "occurredAt", "originChainId", "runId", "payload");
        assertThat(tree.get("eventType").asString()).isEqualTo("TasksPublished");
        assertThat(tree.get("schemaVersion").asInt()).isEqualTo(1);
        assertThat(tree.get("occurredAt").asString()).isEqualTo("2024-01-31T02:05:00.000001Z");
        assertThat(tree.get("payload").propertyNames()).containsExactlyInAnyOrder("dataset", "taskCount", "keyCount");
    }

    @Test
    void factoryFillsTypeIdTimeAndChain() {
        EventEnvelope first = EventEnvelope.startChain(new AuditFailed("orders", "x"), "run-1", CLOCK);
        assertThat(first.originChainId()).isEqualTo(first.eventId());
        assertThat(first.occurredAt()).isEqualTo(CLOCK.instant());
        assertThat(first.schemaVersion()).isEqualTo(EventEnvelope.CURRENT_SCHEMA_VERSION);

        EventEnvelope next =
                EventEnvelope.causedBy(first, new RunCancelled("orders", "control-plane", "audit failed"), CLOCK);
        assertThat(next.originChainId()).isEqualTo(first.eventId());
        assertThat(next.runId()).isEqualTo("run-1");
        assertThat(next.eventId()).isNotEqualTo(first.eventId());

        UUID stable = DeterministicId.nameBasedUuid("BatchCompleted", "task-1-b0");
        assertThat(next.withEventId(stable).eventId()).isEqualTo(stable);
        assertThat(next.payloadAs(RunCancelled.class).cancelledBy()).isEqualTo("control-plane");
        assertThatThrownBy(() -> next.payloadAs(AuditFailed.class))
                .hasMessageContaining("carries RunCancelled, not AuditFailed");
    }

    @Test
    void refusesAMismatchedTypeAndRunEventsWithoutARun() {
        TasksPublished payload = new TasksPublished("orders", 1, 1);
        assertThatThrownBy(() -> new EventEnvelope(
                        UUID.randomUUID(), "AuditFailed", 1, CLOCK.instant(), CHAIN, "run-1", payload))
                .hasMessageStartingWith("eventType 'AuditFailed' does not match the payload type 'TasksPublished'");
        assertThatThrownBy(() -> EventEnvelope.of(payload, null, CHAIN, CLOCK))
                .hasMessage("runId is required for TasksPublished: it only happens within a run");
        assertThat(EventEnvelope.of(ControlSignal.global(true, "oncall", "incident"), null, CHAIN, CLOCK)
                        .runId())
                .isNull();
        assertThatThrownBy(() -> new EventEnvelope(
                        UUID.randomUUID(), "TasksPublished", 0, CLOCK.instant(), CHAIN, "run-1", payload))
                .hasMessage("schemaVersion must be >= 1, got 0");
    }

    @Test
    void unknownEventTypeIsRejectedOnRead() {
        String json = JSON.writeValueAsString(EventEnvelope.of(new AuditFailed("orders", "x"), "run-1", CHAIN, CLOCK))
                .replace("\"AuditFailed\"", "\"SomethingNew\"");
        assertThatThrownBy(() -> JSON.readValue(json, EventEnvelope.class)).hasMessageContaining("SomethingNew");
    }

    @Test
    void everyPayloadTypeIsRegisteredUnderItsSimpleName() {
        Map<Class<?>, String> registered = Arrays.stream(
                        EventPayload.class.getAnnotation(JsonSubTypes.class).value())
                .collect(Collectors.toMap(JsonSubTypes.Type::value, JsonSubTypes.Type::name));
        for (Class<?> permitted : EventPayload.class.getPermittedSubclasses()) {
            assertThat(registered)
                    .as("@JsonSubTypes of EventPayload")
                    .containsEntry(permitted, permitted.getSimpleName());
        }
        assertThat(registered).hasSize(EventPayload.class.getPermittedSubclasses().length);
        List<Class<?>> sampled =
                samples().stream().<Class<?>>map(Object::getClass).toList();
        assertThat(sampled)
                .as("samples() covers every payload type")
                .containsExactlyInAnyOrder(EventPayload.class.getPermittedSubclasses());
    }
}
