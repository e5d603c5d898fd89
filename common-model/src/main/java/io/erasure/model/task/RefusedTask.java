package io.erasure.model.task;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.trust.Authorization;

import java.time.Instant;

/**
 * A deletion task the deletion service refused because it could not prove it authentic (no valid authorization, or one
 * that does not cover it), as published on {@code erasure.deletion.tasks.refused}. Such a task deleted nothing and
 * changes no run's or request's state: anyone who can produce to the task topic can claim any run's or request's ids,
 * so a refusal is reported here, as what the task <em>claims</em>, never as a {@code BatchFailed} of that run or request.
 * The control plane shows per run and per request how many tasks claiming it were refused, and the latest reason.
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
 */
public record RefusedTask(String refusalId, String taskId, String runId, String requestId, String dataset,
                          Authorization.Kind kind, String reasonClass, String reason, String keyId, Instant receivedAt,
                          String source) {

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
    }

    /** The refusal of {@code task}, read at {@code topic}-{@code partition}@{@code offset}. */
    public static RefusedTask of(DeletionTask task, Authorization.Kind kind, String reasonClass, String reason,
                                 String topic, int partition, long offset, Instant receivedAt) {
        String source = topic + "-" + partition + "@" + offset;
        String keyId = task.authority() == null ? null : task.authority().authorization().keyId();
        return new RefusedTask(DeterministicId.nameBasedUuid("task-refused", source, task.taskId()).toString(),
                task.taskId(), task.runId() == null ? null : task.runId().value(), task.requestId(), task.dataset(), kind,
                reasonClass, reason, keyId, receivedAt, source);
    }

    /** The run or request id the task claims. */
    public String originId() {
        return runId != null ? runId : requestId;
    }
}
