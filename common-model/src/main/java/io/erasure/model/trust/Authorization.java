package io.erasure.model.trust;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.key.DeterministicId;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What a deletion task is allowed to do, signed by the service that decided it, so that a task on
 * {@code erasure.deletion.tasks} can be checked on its own: anyone may produce to a topic, but only the holder of a
 * trusted private key can sign, and a consumer holds public keys only ({@link TrustedKeys}).
 *
 * <ul>
 *   <li>{@link Kind#RUN}: the control plane authorized a run (under its limit, or approved). {@code origin} is the run
 *       id, {@code setDigest} the digest of the run's final-set manifest ({@link FinalSetManifest#digest()}), which
 *       names a digest of every final-set part's keys; {@code basis} is APPROVED or UNDER_LIMIT. Validation copies it
 *       into each task of the run, with the part the task's keys come from ({@link TaskAuthority}).</li>
 *   <li>{@link Kind#FORWARD}: one forward-deletion task (the control plane's, a lookup's resolved rows, a recovery
 *       re-application). {@code origin} is the request id and {@code setDigest} the task's content id
 *       ({@link io.erasure.model.task.DeletionTask#contentId()}: its keys, lookup column and cleared columns).</li>
 *   <li>{@link Kind#COPY}: one copy task, derived by the deletion service once the source rows are gone (its keys come
 *       from those rows, which nothing upstream has seen). {@code setDigest} is the task's content id.</li>
 * </ul>
 *
 * {@code specDigest} is {@code SpecDigest} of the frozen spec (service-support: canonical JSON), {@code cutoffMicros}
 * the cut-off the task must use. The signature covers every other field ({@link #signedContent()}).
 */
public record Authorization(
        Kind kind,
        String origin,
        String dataset,
        String specDigest,
        String setDigest,
        long cutoffMicros,
        String basis,
        String authorizedBy,
        Instant issuedAt,
        @Nullable String keyId,
        @Nullable String signature) {

    /** What an authorization allows; a trusted key is granted some of these ({@link TrustedKeys}). */
    public enum Kind {
        /** A run's tasks (its final set). */
        RUN,
        /** One forward-deletion task. */
        FORWARD,
        /** One copy task. */
        COPY,
        /** Control signals (kill switches, cancellations): {@code ControlSignal}'s own signature. */
        CONTROL,
        /**
         * The seal of an audit's result on {@code erasure.run.events} (AuditCompleted, AuditFailed): audit-service's
         * key. Like the two below, a grant to seal events ({@link EventSeals}), never to authorize a task.
         */
        AUDIT_RESULT,
        /** The seal of validation's results (ValidationCompleted, ValidationFailed, TasksPublished): its key. */
        VALIDATION_RESULT,
        /**
         * The seal of a batch's result (BatchCompleted, BatchFailed) and of a refused task's report
         * ({@code RefusedTask}): deletion-service's key.
         */
        BATCH_RESULT
    }

    public Authorization {
        Require.nonNull("authorization.kind", kind);
        Names.opaqueId("authorization.origin", origin);
        Require.nonBlank("authorization.dataset", dataset); // a copy's view name too
        Require.nonBlank("authorization.specDigest", specDigest);
        Require.nonBlank("authorization.setDigest", setDigest);
        Require.nonBlank("authorization.basis", basis);
        Require.nonBlank("authorization.authorizedBy", authorizedBy);
        Require.nonNull("authorization.issuedAt", issuedAt);
        if (keyId != null) {
            Names.opaqueId("authorization.keyId", keyId);
        }
    }

    /** An authorization still to be signed ({@link SigningKey#sign(Authorization)}). */
    public static Authorization unsigned(
            Kind kind,
            String origin,
            String dataset,
            String specDigest,
            String setDigest,
            long cutoffMicros,
            String basis,
            String authorizedBy,
            Instant issuedAt) {
        return new Authorization(
                kind, origin, dataset, specDigest, setDigest, cutoffMicros, basis, authorizedBy, issuedAt, null, null);
    }

    /** The bytes the signature covers: every field but the signature, length-prefixed, in a fixed order. */
    public byte[] signedContent() {
        return DeterministicId.framed(
                "erasure-authorization-v1",
                kind.name(),
                origin,
                dataset,
                specDigest,
                setDigest,
                Long.toString(cutoffMicros),
                basis,
                authorizedBy,
                issuedAt.toString(),
                String.valueOf(keyId));
    }

    Authorization signedWith(String keyId, @Nullable String signature) {
        return new Authorization(
                kind,
                origin,
                dataset,
                specDigest,
                setDigest,
                cutoffMicros,
                basis,
                authorizedBy,
                issuedAt,
                keyId,
                signature);
    }
}
