package io.erasure.model.event;

/**
 * A producer's Ed25519 signature of a whole event ({@link EventEnvelope#sealedContent(String)}): its identity and its
 * payload, under the id its consumers know the producer's public key by. Consumers of {@code erasure.run.events} apply
 * an event only when its seal is valid and its key is granted that event's type
 * ({@link io.erasure.model.trust.EventSeals}). Not checked here: a malformed seal must still parse, to be refused with
 * its reason.
 */
public record EventSeal(String keyId, String signature) {}
