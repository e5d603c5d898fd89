package io.erasure.model.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.key.CanonicalForm;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.trust.SigningKey;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Every message on every topic. {@code eventType} names the payload's class and is what JSON
 * readers use to pick the payload type; {@code originChainId} is shared by all events caused by
 * one original event; {@code runId} is null outside runs (forward deletion, control signals).
 *
 * <p>Consumers de-duplicate on {@code eventId}. A producer that may re-send the same logical event
 * (after a crash) gives it a deterministic id with {@link #withEventId} and
 * {@link io.erasure.model.key.DeterministicId#nameBasedUuid}.
 *
 * <p>{@code seal}: the producer's signature of the whole event ({@link #sealedWith}), which every event on
 * {@code erasure.run.events} carries and its consumers check before anything else
 * ({@link io.erasure.model.trust.EventSeals}); null (and absent from the JSON) on the other topics' messages.
 */
public record EventEnvelope(
        UUID eventId,
        String eventType,
        int schemaVersion,
        Instant occurredAt,
        UUID originChainId,
        @Nullable String runId,

        @JsonTypeInfo(
                use = JsonTypeInfo.Id.NAME,
                include = JsonTypeInfo.As.EXTERNAL_PROPERTY,
                property = "eventType",
                visible = true)
        EventPayload payload,

        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable EventSeal seal) {

    public static final int CURRENT_SCHEMA_VERSION = 1;

    /** What a seal's signature covers, and the version of that form. */
    static final String SEAL_CONTENT = "erasure-event-seal-v1";

    /** An unsealed event. */
    public EventEnvelope(
            UUID eventId,
            String eventType,
            int schemaVersion,
            Instant occurredAt,
            UUID originChainId,
            @Nullable String runId,
            EventPayload payload) {
        this(eventId, eventType, schemaVersion, occurredAt, originChainId, runId, payload, null);
    }

    public EventEnvelope {
        Require.nonNull("eventId", eventId);
        Require.nonNull("payload", payload);
        Require.nonBlank("eventType", eventType);
        String payloadType = EventPayload.typeName(payload.getClass());
        if (!eventType.equals(payloadType)) {
            throw new IllegalArgumentException("eventType '" + eventType + "' does not match the payload type '"
                    + payloadType + "'; build envelopes with EventEnvelope.of(...)");
        }
        if (schemaVersion < 1) {
            throw new IllegalArgumentException("schemaVersion must be >= 1, got " + schemaVersion);
        }
        Require.nonNull("occurredAt", occurredAt);
        Require.nonNull("originChainId", originChainId);
        if (runId != null) {
            Names.opaqueId("runId", runId);
        } else if (payload instanceof RunScoped) {
            throw new IllegalArgumentException("runId is required for " + eventType + ": it only happens within a run");
        }
    }

    /** A new event with a fresh id, stamped now by {@code clock}, in the chain {@code originChainId}. */
    public static EventEnvelope of(EventPayload payload, @Nullable String runId, UUID originChainId, Clock clock) {
        Require.nonNull("payload", payload);
        return new EventEnvelope(
                UUID.randomUUID(),
                EventPayload.typeName(payload.getClass()),
                CURRENT_SCHEMA_VERSION,
                clock.instant(),
                originChainId,
                runId,
                payload);
    }

    /** A new event that starts its own chain (its origin chain id is its own event id). */
    public static EventEnvelope startChain(EventPayload payload, @Nullable String runId, Clock clock) {
        UUID id = UUID.randomUUID();
        return of(payload, runId, id, clock).withEventId(id);
    }

    /** A new event caused by {@code cause}: same run, same chain. */
    public static EventEnvelope causedBy(EventEnvelope cause, EventPayload payload, Clock clock) {
        return of(payload, cause.runId(), cause.originChainId(), clock);
    }

    /**
     * This event with a given id, for producers that derive ids from the effect's scope; unsealed, since the seal
     * covers the id (seal last).
     */
    public EventEnvelope withEventId(UUID id) {
        return new EventEnvelope(id, eventType, schemaVersion, occurredAt, originChainId, runId, payload);
    }

    /**
     * This event sealed with {@code key}: its {@link #seal} names the key and signs {@link #sealedContent(String)}.
     * Seal last: any change of the event afterwards breaks the seal.
     */
    public EventEnvelope sealedWith(SigningKey key) {
        Require.nonNull("key", key);
        EventSeal seal = new EventSeal(key.keyId(), key.sign(sealedContent(key.keyId())));
        return new EventEnvelope(eventId, eventType, schemaVersion, occurredAt, originChainId, runId, payload, seal);
    }

    /**
     * The bytes a seal by {@code keyId} signs: the envelope's identity (event id, type, schema version, when it
     * occurred, its origin chain and run) and the whole payload, each in its canonical form ({@link CanonicalForm}:
     * from the values as parsed, so the signature holds whatever JSON writer and reader carried the event),
     * length-prefixed, in a fixed order, after the key id. The seal itself is not part of it.
     */
    public byte[] sealedContent(String keyId) {
        return DeterministicId.framed(
                SEAL_CONTENT,
                String.valueOf(keyId),
                eventId.toString(),
                eventType,
                Integer.toString(schemaVersion),
                occurredAt.toString(),
                originChainId.toString(),
                CanonicalForm.of(runId),
                CanonicalForm.of(payload));
    }

    /** The payload as {@code type}; fails naming both types if it is another event. */
    public <P extends EventPayload> P payloadAs(Class<P> type) {
        if (!type.isInstance(payload)) {
            throw new IllegalStateException(
                    "event " + eventId + " carries " + eventType + ", not " + EventPayload.typeName(type));
        }
        return type.cast(payload);
    }
}
