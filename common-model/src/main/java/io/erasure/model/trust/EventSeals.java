package io.erasure.model.trust;

import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditFailed;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.event.EventSeal;
import io.erasure.model.event.LookupResolved;
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.event.ValidationFailed;
import io.erasure.model.trust.Authorization.Kind;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who may say what on {@code erasure.run.events}: each event type there is accepted only sealed
 * ({@link EventEnvelope#sealedWith}) by a key granted its producer's role, so a key trusted for deletion tasks cannot
 * seal an audit result, and an event nobody sealed changes nothing.
 *
 * <table>
 *   <caption>event types and the grant their seal needs</caption>
 *   <tr><th>event</th><th>producer</th><th>grant</th></tr>
 *   <tr><td>AuditCompleted, AuditFailed</td><td>audit-service</td><td>{@link Kind#AUDIT_RESULT}</td></tr>
 *   <tr><td>ValidationCompleted, ValidationFailed, TasksPublished</td><td>validation-service</td>
 *       <td>{@link Kind#VALIDATION_RESULT}</td></tr>
 *   <tr><td>BatchCompleted, BatchFailed,
 *   LookupResolved</td><td>deletion-service</td><td>{@link Kind#BATCH_RESULT}</td></tr>
 * </table>
 *
 * Any other type (a command, a unit) does not belong on the topic and is refused whoever sealed it.
 */
public final class EventSeals {

    /** Why an event was refused: a stable {@code reason} (a metric tag) and what it means for this event. */
    public record Refusal(String reason, String detail) {}

    /** No seal at all. */
    public static final String UNSEALED = "unsealed";
    /** A type that no producer may publish on {@code erasure.run.events}. */
    public static final String NOT_A_RUN_EVENT = "not_a_run_event";
    /** Sealed by a key this consumer does not trust. */
    public static final String UNKNOWN_KEY = "unknown_key";
    /** Sealed by a trusted key that is not granted this event's type (another service's role). */
    public static final String NOT_GRANTED = "not_granted";
    /** The signature does not match the event (altered, or signed by another key), or cannot be read. */
    public static final String BAD_SEAL = "bad_seal";

    private static final Map<Class<? extends EventPayload>, Kind> GRANTS = Map.of(
            AuditCompleted.class, Kind.AUDIT_RESULT,
            AuditFailed.class, Kind.AUDIT_RESULT,
            ValidationCompleted.class, Kind.VALIDATION_RESULT,
            ValidationFailed.class, Kind.VALIDATION_RESULT,
            TasksPublished.class, Kind.VALIDATION_RESULT,
            BatchCompleted.class, Kind.BATCH_RESULT,
            BatchFailed.class, Kind.BATCH_RESULT,
            LookupResolved.class, Kind.BATCH_RESULT);

    private EventSeals() {}

    /**
     * The grant a seal of {@code type} needs, or empty for a type that does not belong on {@code erasure.run.events}.
     */
    public static Optional<Kind> grantFor(Class<? extends EventPayload> type) {
        return Optional.ofNullable(GRANTS.get(type));
    }

    /** The run-event types, by the grant their seal needs. */
    public static Set<Class<? extends EventPayload>> runEventTypes() {
        return GRANTS.keySet();
    }

    /**
     * Why {@code event} must not be applied: not a run event, unsealed, sealed by a key {@code trusted} does not hold
     * or has not granted this type, or a seal that does not match the event; empty when the seal is valid.
     */
    public static Optional<Refusal> refusal(EventEnvelope event, TrustedKeys trusted) {
        Optional<Kind> grant = grantFor(event.payload().getClass());
        if (grant.isEmpty()) {
            return Optional.of(new Refusal(
                    NOT_A_RUN_EVENT,
                    event.eventType() + " is not a result any service publishes" + " on erasure.run.events"));
        }
        EventSeal seal = event.seal();
        if (seal == null
                || seal.keyId() == null
                || seal.keyId().isBlank()
                || seal.signature() == null
                || seal.signature().isBlank()) {
            return Optional.of(new Refusal(
                    UNSEALED,
                    "it is not sealed (a " + event.eventType() + " must be sealed by a" + " key granted " + grant.get()
                            + ")"));
        }
        Map<String, Set<Kind>> grants = trusted.grants();
        String keyId = printable(seal.keyId());
        if (!grants.containsKey(seal.keyId())) {
            return Optional.of(new Refusal(
                    UNKNOWN_KEY,
                    "it is sealed by key '" + keyId + "', which is not trusted here" + " (trusted: " + grants.keySet()
                            + ")"));
        }
        if (!grants.get(seal.keyId()).contains(grant.get())) {
            return Optional.of(new Refusal(
                    NOT_GRANTED,
                    "it is sealed by key '" + keyId + "', which is trusted for "
                            + grants.get(seal.keyId()) + " but not for " + grant.get() + ", which a "
                            + event.eventType()
                            + " needs"));
        }
        return trusted.refusal(seal.keyId(), grant.get(), event.sealedContent(seal.keyId()), seal.signature())
                .map(why -> new Refusal(BAD_SEAL, why));
    }

    /** An id from the wire, cut and stripped of control characters, for a log line. */
    private static String printable(String text) {
        String cut = text.length() > 64 ? text.substring(0, 64) + "…" : text;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
