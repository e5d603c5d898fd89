package io.erasure.model.trust;

import static io.erasure.model.Fixtures.CUTOFF;
import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.Fixtures;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditFailed;
import io.erasure.model.event.AuditRequested;
import io.erasure.model.event.AuditUnit;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.event.EventSeal;
import io.erasure.model.event.ForwardDeletionRequested;
import io.erasure.model.event.LookupResolution;
import io.erasure.model.event.LookupResolved;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.event.RunCancelled;
import io.erasure.model.event.RunScoped;
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.event.ValidationFailed;
import io.erasure.model.event.ValidationRequested;
import io.erasure.model.key.CanonicalForm;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization.Kind;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Seals of whole events: what they cover, that they survive any JSON round trip, and who may seal which event. */
class EventSealTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-01-31T02:05:00.123456789Z"), ZoneOffset.UTC);
    private static final UUID CHAIN = UUID.fromString("00000000-0000-0000-0000-00000000c4a1");

    /**
     * Writers and readers the seal must not depend on: defaults, the platform's exact decimals, sorted and indented.
     */
    private static final List<JsonMapper> MAPPERS = List.of(
            JsonMapper.builder().build(),
            JsonMapper.builder()
                    .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    .build(),
            JsonMapper.builder()
                    .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                    .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .build());

    private static final Pair AUDIT = Pair.generate("audit-1");
    private static final Pair VALIDATION = Pair.generate("validation-1");
    private static final Pair DELETION = Pair.generate("deletion-1");
    private static final Pair CONTROL_PLANE = Pair.generate("control-plane-1");

    private static final TrustedKeys TRUSTED = TrustedKeys.of(Map.of(
            AUDIT.id(), AUDIT.trusted(EnumSet.of(Kind.AUDIT_RESULT)),
            VALIDATION.id(), VALIDATION.trusted(EnumSet.of(Kind.VALIDATION_RESULT)),
            DELETION.id(), DELETION.trusted(EnumSet.of(Kind.COPY, Kind.FORWARD, Kind.BATCH_RESULT)),
            CONTROL_PLANE.id(), CONTROL_PLANE.trusted(EnumSet.of(Kind.RUN, Kind.FORWARD, Kind.CONTROL))));

    /** One sample of every payload type, every component set (maps, lists, nested records, decimals in the spec). */
    private static List<EventPayload> samples() {
        Map<String, Long> dropped = new LinkedHashMap<>();
        dropped.put("newer_than_cutoff", 15L);
        dropped.put("already_absent", 4L);
        dropped.put("reactivated", 1L);
        return List.of(
                new AuditRequested(Fixtures.orders(), Fixtures.customers(), true),
                new ValidationRequested(Fixtures.orders(), Fixtures.customers(), CUTOFF, 120, 10_000, true),
                new DeletionAuthorized(
                        "orders",
                        DeletionAuthorized.Basis.APPROVED,
                        "bob",
                        CONTROL_PLANE
                                .key()
                                .sign(Authorization.unsigned(
                                        Kind.RUN,
                                        "run-1",
                                        "orders",
                                        "spec-digest-1",
                                        "final-digest-1",
                                        1_000L,
                                        "APPROVED",
                                        "bob",
                                        Instant.parse("2024-01-31T02:04:00Z")))),
                new RunCancelled("orders", "alice", "wrong identifier source"),
                new AuditCompleted(
                        "orders",
                        "20240131T020000Z",
                        CUTOFF,
                        10_000,
                        120,
                        "runs/run-1/candidates/",
                        "spec-digest-1",
                        4),
                new AuditFailed("orders", "manifest missing"),
                new ValidationCompleted(
                        "orders",
                        120,
                        100,
                        dropped,
                        "runs/run-1/final/",
                        2,
                        true,
                        3,
                        "runs/run-1/resurrected.jsonl.gz",
                        "final-digest-1",
                        "spec-digest-1"),
                new ValidationFailed("orders", "store unreachable"),
                new TasksPublished("orders", 2, 100),
                new BatchCompleted(
                        "orders-cache",
                        "task-1",
                        "task-1-b0",
                        "req-1",
                        new BatchCounts(97, 2, 1, 3),
                        ReadBackResult.ROWS_REMAINING,
                        2,
                        "orders",
                        0,
                        "0".repeat(64),
                        List.of("no repair known", "tombstones"),
                        null),
                new BatchFailed("orders", "task-1", "task-1-b1", "req-1", "timeout", true),
                new AuditUnit(
                        Fixtures.orders(),
                        "backups/orders/20240131T020000Z/manifest.json",
                        "backups/orders/20240131T020000Z/part-00003.jsonl.gz",
                        3,
                        8,
                        "backups/customers/20240131T010000Z/manifest.json",
                        CUTOFF),
                ControlSignal.dataset(
                                "orders", true, List.of(RunId.of("run-2"), RunId.of("run-1")), "oncall", "incident 42")
                        .signed(1_706_666_700_000_000L, CONTROL_PLANE.key()),
                new ForwardDeletionRequested(
                        "customers",
                        "42",
                        3,
                        Instant.parse("2024-01-31T01:00:00.5Z"),
                        Map.of("accounts", List.of("a-1", "a-2"), "carts", List.of("c-1")),
                        "crm"),
                // a forward lookup's batch of a dataset itself: its copy tasks and what the lookup resolved
                new BatchCompleted(
                        "orders",
                        "task-2",
                        "task-2-b0",
                        "req-1",
                        new BatchCounts(0, 0, 0, 0),
                        ReadBackResult.NOT_SUPPORTED,
                        0,
                        null,
                        2,
                        null,
                        List.of(),
                        new LookupResolution(List.of("task-3", "task-4"), 7, null)),
                new LookupResolved(
                        "orders", "task-2", "task-2-b0", "req-1", new LookupResolution(List.of("task-3"), 7, null)),
                new LookupResolved("orders", "task-5", "task-5-b0", "req-1", LookupResolution.refused("no index")));
    }

    private static EventEnvelope envelope(EventPayload payload) {
        String runId =
                payload instanceof RunScoped || payload instanceof BatchCompleted || payload instanceof BatchFailed
                        ? "run-1"
                        : null;
        return EventEnvelope.of(payload, runId, CHAIN, CLOCK);
    }

    /** The key of the role that publishes {@code payload} (the control plane's for what is not a run event). */
    private static Pair producerOf(EventPayload payload) {
        return switch (EventSeals.grantFor(payload.getClass()).orElse(Kind.CONTROL)) {
            case AUDIT_RESULT -> AUDIT;
            case VALIDATION_RESULT -> VALIDATION;
            case BATCH_RESULT -> DELETION;
            default -> CONTROL_PLANE;
        };
    }

    /** Valid when sealed by {@code pair} for {@code kind}, checked as a consumer does, on the event as it parsed it. */
    private static boolean validSeal(EventEnvelope event) {
        if (EventSeals.grantFor(event.payload().getClass()).isPresent()) {
            return EventSeals.refusal(event, TRUSTED).isEmpty();
        }
        return TRUSTED.refusal(
                        event.seal().keyId(),
                        Kind.CONTROL,
                        event.sealedContent(event.seal().keyId()),
                        event.seal().signature())
                .isEmpty();
    }

    @Test
    void theSealHoldsThroughEveryJsonRoundTripOfEveryPayloadType() {
        assertThat(samples().stream().<Class<?>>map(Object::getClass).distinct())
                .as("samples() covers every payload type")
                .containsExactlyInAnyOrder(EventPayload.class.getPermittedSubclasses());
        for (EventPayload payload : samples()) {
            EventEnvelope sealed =
                    envelope(payload).sealedWith(producerOf(payload).key());
            for (JsonMapper writer : MAPPERS) {
                String written = writer.writeValueAsString(sealed);
                for (JsonMapper reader : MAPPERS) {
                    for (String json : List.of(written, reversed(reader, written))) {
                        EventEnvelope back = reader.readValue(json, EventEnvelope.class);
                        assertThat(back.seal()).as(json).isEqualTo(sealed.seal());
                        assertThat(validSeal(back))
                                .as("sealed → JSON → parsed → verified: " + json)
                                .isTrue();
                    }
                }
            }
        }
    }

    @Test
    void theSealCoversTheEnvelopesIdentityAndEveryComponentOfThePayload() {
        Map<Class<?>, Set<String>> covered = new LinkedHashMap<>();
        for (EventPayload payload : samples()) {
            String canonical = CanonicalForm.of(payload);
            for (RecordComponent component : payload.getClass().getRecordComponents()) {
                if (isUnset(payload, component)) {
                    continue; // left out as unset (null or a primitive's default): another sample of its type sets it
                }
                assertThat(canonical)
                        .as(payload.getClass().getSimpleName() + "." + component.getName() + " in " + canonical)
                        .contains("k" + component.getName().length() + ":" + component.getName());
                covered.computeIfAbsent(payload.getClass(), type -> new TreeSet<>())
                        .add(component.getName());
            }
        }
        covered.forEach((type, names) -> assertThat(names)
                .as("components of " + type.getSimpleName() + " some sample sets")
                .containsExactlyInAnyOrder(Arrays.stream(type.getRecordComponents())
                        .map(RecordComponent::getName)
                        .toArray(String[]::new)));
        ValidationCompleted validation = (ValidationCompleted) samples().get(6);
        EventEnvelope sealed = envelope(validation).sealedWith(VALIDATION.key());
        EventSeal seal = sealed.seal();
        List<EventEnvelope> altered = List.of(
                new EventEnvelope(
                        UUID.randomUUID(),
                        sealed.eventType(),
                        1,
                        sealed.occurredAt(),
                        CHAIN,
                        "run-1",
                        validation,
                        seal),
                new EventEnvelope(
                        sealed.eventId(), sealed.eventType(), 2, sealed.occurredAt(), CHAIN, "run-1", validation, seal),
                new EventEnvelope(
                        sealed.eventId(),
                        sealed.eventType(),
                        1,
                        sealed.occurredAt().plusNanos(1),
                        CHAIN,
                        "run-1",
                        validation,
                        seal),
                new EventEnvelope(
                        sealed.eventId(),
                        sealed.eventType(),
                        1,
                        sealed.occurredAt(),
                        UUID.randomUUID(),
                        "run-1",
                        validation,
                        seal),
                new EventEnvelope(
                        sealed.eventId(), sealed.eventType(), 1, sealed.occurredAt(), CHAIN, "run-2", validation, seal),
                new EventEnvelope(
                        sealed.eventId(),
                        sealed.eventType(),
                        1,
                        sealed.occurredAt(),
                        CHAIN,
                        "run-1",
                        new ValidationCompleted(
                                "orders",
                                120,
                                100,
                                validation.droppedByReason(),
                                "runs/run-1/final/",
                                2,
                                false,
                                3,
                                "runs/run-1/resurrected.jsonl.gz",
                                "final-digest-1",
                                "spec-digest-1"),
                        seal),
                new EventEnvelope(
                        sealed.eventId(),
                        sealed.eventType(),
                        1,
                        sealed.occurredAt(),
                        CHAIN,
                        "run-1",
                        new ValidationCompleted(
                                "orders",
                                120,
                                100,
                                validation.droppedByReason(),
                                "runs/run-1/final/",
                                2,
                                true,
                                3,
                                "runs/run-1/resurrected.jsonl.gz",
                                "another-final-set",
                                "spec-digest-1"),
                        seal),
                new EventEnvelope(
                        sealed.eventId(),
                        sealed.eventType(),
                        1,
                        sealed.occurredAt(),
                        CHAIN,
                        "run-1",
                        new ValidationCompleted(
                                "orders",
                                120,
                                100,
                                Map.of("newer_than_cutoff", 16L, "already_absent", 3L, "reactivated", 1L),
                                "runs/run-1/final/",
                                2,
                                true,
                                3,
                                "runs/run-1/resurrected.jsonl.gz",
                                "final-digest-1",
                                "spec-digest-1"),
                        seal));
        assertThat(EventSeals.refusal(sealed, TRUSTED)).isEmpty();
        for (EventEnvelope event : altered) {
            assertThat(EventSeals.refusal(event, TRUSTED))
                    .as(event.toString())
                    .get()
                    .extracting(EventSeals.Refusal::reason)
                    .isEqualTo(EventSeals.BAD_SEAL);
        }
        assertThat(sealed.withEventId(UUID.randomUUID()).seal())
                .as("a new id drops the seal that covered the old")
                .isNull();
    }

    @Test
    void anEventAlteredOnTheWireIsRefused() {
        JsonMapper json = MAPPERS.get(1);
        Map<EventPayload, UnaryOperator<String>> edits = Map.of(
                samples().get(6), s -> s.replace("\"exceedsLimit\":true", "\"exceedsLimit\":false"),
                samples().get(4),
                        s -> s.replace("\"cutoff\":" + CUTOFF.micros(), "\"cutoff\":" + (CUTOFF.micros() + 1)),
                samples().get(9), s -> s.replace("\"deleted\":97", "\"deleted\":970"),
                samples().get(8), s -> s.replace("\"runId\":\"run-1\"", "\"runId\":\"run-9\""));
        edits.forEach((payload, edit) -> {
            String genuine = json.writeValueAsString(
                    envelope(payload).sealedWith(producerOf(payload).key()));
            String forged = edit.apply(genuine);
            assertThat(forged).as("the edit applies").isNotEqualTo(genuine);
            assertThat(EventSeals.refusal(json.readValue(forged, EventEnvelope.class), TRUSTED))
                    .as(forged)
                    .get()
                    .extracting(EventSeals.Refusal::reason)
                    .isEqualTo(EventSeals.BAD_SEAL);
        });
    }

    @Test
    void eachEventTypeIsAcceptedOnlyFromAKeyGrantedItsProducersRole() {
        EventEnvelope validation = envelope(samples().get(6));
        EventEnvelope audit = envelope(samples().get(4));
        EventEnvelope batch = envelope(samples().get(9));
        assertThat(EventSeals.refusal(validation.sealedWith(VALIDATION.key()), TRUSTED))
                .isEmpty();
        assertThat(EventSeals.refusal(audit.sealedWith(AUDIT.key()), TRUSTED)).isEmpty();
        assertThat(EventSeals.refusal(batch.sealedWith(DELETION.key()), TRUSTED))
                .isEmpty();

        assertThat(EventSeals.refusal(validation, TRUSTED)).get().satisfies(refusal -> {
            assertThat(refusal.reason()).isEqualTo(EventSeals.UNSEALED);
            assertThat(refusal.detail()).contains("VALIDATION_RESULT");
        });
        // a key trusted for deletion tasks (and batch results) cannot seal an audit result or a validation
        assertThat(EventSeals.refusal(audit.sealedWith(DELETION.key()), TRUSTED))
                .get()
                .satisfies(refusal -> {
                    assertThat(refusal.reason()).isEqualTo(EventSeals.NOT_GRANTED);
                    assertThat(refusal.detail()).contains("deletion-1").contains("AUDIT_RESULT");
                });
        assertThat(EventSeals.refusal(validation.sealedWith(AUDIT.key()), TRUSTED))
                .get()
                .extracting(EventSeals.Refusal::reason)
                .isEqualTo(EventSeals.NOT_GRANTED);
        assertThat(EventSeals.refusal(batch.sealedWith(CONTROL_PLANE.key()), TRUSTED))
                .get()
                .extracting(EventSeals.Refusal::reason)
                .isEqualTo(EventSeals.NOT_GRANTED);
        // an unknown key, a trusted id with another private key, a seal lifted from another event
        assertThat(EventSeals.refusal(
                        validation.sealedWith(Pair.generate("intruder").key()), TRUSTED))
                .get()
                .extracting(EventSeals.Refusal::reason)
                .isEqualTo(EventSeals.UNKNOWN_KEY);
        assertThat(EventSeals.refusal(
                        validation.sealedWith(Pair.generate(VALIDATION.id()).key()), TRUSTED))
                .get()
                .extracting(EventSeals.Refusal::reason)
                .isEqualTo(EventSeals.BAD_SEAL);
        EventEnvelope other = envelope(new ValidationCompleted(
                "orders", 5, 5, Map.of(), "runs/run-1/final/", 1, false, 0, null, "final-digest-1", "spec-digest-1"));
        EventSeal lifted = validation.sealedWith(VALIDATION.key()).seal();
        assertThat(EventSeals.refusal(
                        new EventEnvelope(
                                other.eventId(),
                                other.eventType(),
                                1,
                                other.occurredAt(),
                                other.originChainId(),
                                other.runId(),
                                other.payload(),
                                lifted),
                        TRUSTED))
                .get()
                .extracting(EventSeals.Refusal::reason)
                .isEqualTo(EventSeals.BAD_SEAL);
        assertThat(EventSeals.refusal(
                        new EventEnvelope(
                                other.eventId(),
                                other.eventType(),
                                1,
                                other.occurredAt(),
                                other.originChainId(),
                                other.runId(),
                                other.payload(),
                                new EventSeal(VALIDATION.id(), "not base64!")),
                        TRUSTED))
                .get()
                .extracting(EventSeals.Refusal::reason)
                .isEqualTo(EventSeals.BAD_SEAL);
        // what no service publishes on erasure.run.events is refused however it is sealed
        assertThat(EventSeals.refusal(envelope(samples().get(0)).sealedWith(CONTROL_PLANE.key()), TRUSTED))
                .get()
                .extracting(EventSeals.Refusal::reason)
                .isEqualTo(EventSeals.NOT_A_RUN_EVENT);
        assertThat(EventSeals.runEventTypes())
                .containsExactlyInAnyOrder(
                        AuditCompleted.class,
                        AuditFailed.class,
                        ValidationCompleted.class,
                        ValidationFailed.class,
                        TasksPublished.class,
                        BatchCompleted.class,
                        BatchFailed.class,
                        LookupResolved.class);
    }

    @Test
    void anOlderProducersEventWithoutALaterComponentStillVerifies() {
        // a producer that predates a component never wrote it: the reader's null (or 0) is left out of the form
        JsonMapper json = MAPPERS.get(0);
        EventEnvelope sealed = envelope(
                        new ValidationCompleted("orders", 5, 5, Map.of(), "runs/run-1/final/", 1, false))
                .sealedWith(VALIDATION.key());
        ObjectNode tree = (ObjectNode) json.readTree(json.writeValueAsString(sealed));
        ((ObjectNode) tree.get("payload")).remove(List.of("specDigest", "finalSetDigest", "resurrectedKey"));
        assertThat(EventSeals.refusal(json.treeToValue(tree, EventEnvelope.class), TRUSTED))
                .isEmpty();
    }

    @Test
    void theCanonicalFormIsTheParsedValueNotItsSpelling() {
        assertThat(CanonicalForm.of(Map.of("a", new BigDecimal("1.00"), "b", 2)))
                .isEqualTo(CanonicalForm.of(Map.of("b", 2L, "a", 1)))
                .isEqualTo(CanonicalForm.of(Map.of("a", 1.0d, "b", new BigDecimal("2E0"))));
        assertThat(CanonicalForm.of(0.05d)).isEqualTo(CanonicalForm.of(new BigDecimal("0.050")));
        assertThat(CanonicalForm.of(new BigDecimal("0.05"))).isNotEqualTo(CanonicalForm.of(new BigDecimal("0.5")));
        assertThat(CanonicalForm.of(List.of("a", "b"))).isNotEqualTo(CanonicalForm.of(List.of("b", "a")));
        assertThat(CanonicalForm.of(Set.of("a", "b"))).isEqualTo(CanonicalForm.of(Set.of("b", "a")));
        assertThat(CanonicalForm.of(List.of("ab"))).isNotEqualTo(CanonicalForm.of(List.of("a", "b")));
        assertThat(CanonicalForm.of(null)).isNotEqualTo(CanonicalForm.of(""));
        assertThat(CanonicalForm.of(new BigDecimal("0.000"))).isEqualTo(CanonicalForm.of(0));
        // decimals inside a payload (the frozen spec's limits), written and read with and without exact decimals
        AuditRequested request = new AuditRequested(Fixtures.orders(), Fixtures.customers(), false);
        for (JsonMapper writer : MAPPERS) {
            for (JsonMapper reader : MAPPERS) {
                assertThat(CanonicalForm.of(reader.readValue(writer.writeValueAsString(request), AuditRequested.class)))
                        .isEqualTo(CanonicalForm.of(request));
            }
        }
    }

    private static boolean isUnset(Object record, RecordComponent component) {
        try {
            Object value = component.getAccessor().invoke(record);
            return value == null || value.equals(false) || value instanceof Number n && n.doubleValue() == 0;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code json} with the properties of every object in reverse order (as another writer may order them). */
    private static String reversed(JsonMapper mapper, String json) {
        return mapper.writeValueAsString(reverse(mapper.readTree(json)));
    }

    private static JsonNode reverse(JsonNode node) {
        if (node.isObject()) {
            List<Map.Entry<String, JsonNode>> properties = new ArrayList<>(node.properties());
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (int i = properties.size() - 1; i >= 0; i--) {
                out.set(properties.get(i).getKey(), reverse(properties.get(i).getValue()));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            node.forEach(item -> out.add(reverse(item)));
            return out;
        }
        return node;
    }

    /** A fresh Ed25519 pair under {@code id}. */
    private record Pair(String id, SigningKey key, String publicKey) {
        static Pair generate(String id) {
            try {
                KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
                return new Pair(
                        id,
                        SigningKey.of(
                                id,
                                Base64.getEncoder()
                                        .encodeToString(pair.getPrivate().getEncoded())),
                        Base64.getEncoder().encodeToString(pair.getPublic().getEncoded()));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }

        TrustedKeys.Trusted trusted(Set<Kind> grants) {
            return new TrustedKeys.Trusted(TrustedKeys.publicKey(id, publicKey), grants);
        }
    }
}
