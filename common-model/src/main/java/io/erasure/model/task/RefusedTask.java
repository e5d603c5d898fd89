package io.erasure.model.task;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.SigningKey;
import io.erasure.model.trust.TrustedKeys;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A deletion task the deletion service refused because it could not prove it authentic (no valid authorization, or one
 * that does not cover it), as published on {@code erasure.deletion.tasks.refused}. Such a task deleted nothing and
 * changes no run's or request's state: anyone who can produce to the task topic can claim any run's or request's ids,
 * so a refusal is reported here, as what the task <em>claims</em>, never as a {@code BatchFailed} of that run or
 * request. The control plane shows per run and per request how many tasks claiming it were refused, and the latest
 * reason.
 *
 * @param refusalId   derived from where the task was read ({@code source}), so a task refused again after a
 *                    redelivery has the same id and is counted once
 * @param taskId      the id the task says it has
 * @param runId       the run it claims (null for forward deletion)
 * @param requestId   the forward request it claims (null for a run's)
 * @param dataset     the dataset it names
 * @param kind        the kind of authorization it needs (RUN, FORWARD or COPY)
 * @param reasonClass a short class of the reason, as the metric {@code erasure.deletion.tasks.refused} tags it
 * @param reason      why it was refused
 * @param keyId       the key its authorization says it was signed by, or null
 * @param receivedAt  when the deletion service read it
 * @param source      where it was read: {@code topic-partition@offset}
 * @param signedBy    the key id of the deletion service that reported it ({@link Authorization.Kind#BATCH_RESULT}),
 *                    null while unsigned
 * @param signature   its Ed25519 signature over {@link #signedContent()}: the control plane shows only reports it can
 *                    verify, so anyone who can produce to the topic cannot put their own words beside a genuine run
 */
public record RefusedTask(
        String refusalId,
        String taskId,
        @Nullable String runId,
        @Nullable String requestId,
        String dataset,
        Authorization.Kind kind,
        String reasonClass,
        String reason,
        @Nullable String keyId,
        Instant receivedAt,
        String source,
        @Nullable String signedBy,
        @Nullable String signature) {

    /** An unsigned report, to be {@link #signed} by the deletion service that refused the task. */
    public RefusedTask(
            String refusalId,
            String taskId,
            @Nullable String runId,
            @Nullable String requestId,
            String dataset,
            Authorization.Kind kind,
            String reasonClass,
            String reason,
            @Nullable String keyId,
            Instant receivedAt,
            String source) {
        this(
                refusalId,
                taskId,
                runId,
                requestId,
                dataset,
                kind,
                reasonClass,
                reason,
                keyId,
                receivedAt,
                source,
                null,
                null);
    }

    /** Reasons are cut to this many characters (a refusal can quote keys). */
    public static final int MAX_REASON = 1_000;

    public RefusedTask {
        Require.nonBlank("refusalId", refusalId);
        Names.opaqueId("taskId", taskId);
        if ((runId == null) == (requestId == null)) {
            throw new IllegalArgumentException("a refused task claims exactly one of runId and requestId, got runId="
                    + runId + ", requestId=" + requestId);
        }
        if (runId != null) {
            Names.opaqueId("runId", runId);
        }
        if (requestId != null) {
            Names.opaqueId("requestId", requestId);
        }
        Require.nonBlank("dataset", dataset);
        Require.nonNull("kind", kind);
        Require.nonBlank("reasonClass", reasonClass);
        Require.nonBlank("reason", reason);
        reason = reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON - 1) + "…" : reason;
        Require.nonNull("receivedAt", receivedAt);
        Require.nonBlank("source", source);
        if (signedBy != null) {
            Names.opaqueId("signedBy", signedBy);
        }
    }

    /** The bytes the signature covers: every field but the signature, in a fixed order. */
    public byte[] signedContent() {
        return DeterministicId.framed(
                "refused-task-v1",
                refusalId,
                taskId,
                String.valueOf(runId),
                String.valueOf(requestId),
                dataset,
                kind.name(),
                reasonClass,
                reason,
                String.valueOf(keyId),
                receivedAt.toString(),
                source,
                String.valueOf(signedBy));
    }

    /** This report signed with {@code key} (the reporting deletion service's). */
    public RefusedTask signed(SigningKey key) {
        RefusedTask unsigned = new RefusedTask(
                refusalId,
                taskId,
                runId,
                requestId,
                dataset,
                kind,
                reasonClass,
                reason,
                keyId,
                receivedAt,
                source,
                key.keyId(),
                null);
        return new RefusedTask(
                refusalId,
                taskId,
                runId,
                requestId,
                dataset,
                kind,
                reasonClass,
                reason,
                keyId,
                receivedAt,
                source,
                key.keyId(),
                key.sign(unsigned.signedContent()));
    }

    /**
     * Why this report is not a valid signature of a key {@code trusted} grants deletion's results; empty when it is.
     */
    public Optional<String> signatureRefusal(TrustedKeys trusted) {
        return trusted.refusal(signedBy, Authorization.Kind.BATCH_RESULT, signedContent(), signature);
    }

    /** The refusal of {@code task}, read at {@code topic}-{@code partition}@{@code offset}. */
    public static RefusedTask of(
            DeletionTask task,
            Authorization.Kind kind,
            String reasonClass,
            String reason,
            String topic,
            int partition,
            long offset,
            Instant receivedAt) {
        String source = topic + "-" + partition + "@" + offset;
        String keyId = task.authority() == null
                ? null
                : task.authority().authorization().keyId();
        return new RefusedTask(
                DeterministicId.nameBasedUuid("task-refused", source, task.taskId())
                        .toString(),
                task.taskId(),
                task.runId() == null ? null : task.runId().value(),
                task.requestId(),
                task.dataset(),
                kind,
                reasonClass,
                reason,
                keyId,
                receivedAt,
                source);
    }

    /** The run or request id the task claims. */
    public String originId() {
        return runId != null ? runId : Objects.requireNonNull(requestId, "neither a run nor a request");
    }
}
