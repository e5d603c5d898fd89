package io.erasure.support.trust;

import io.erasure.model.task.DeletionTask;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.SigningKey;
import io.erasure.model.trust.TaskAuthority;
import java.time.Clock;

/**
 * Signs the forward and copy tasks a service publishes, one by one ({@link Authorization.Kind#FORWARD},
 * {@link Authorization.Kind#COPY}): the request, dataset, spec digest, cut-off and the task's content id (its keys,
 * lookup column and cleared columns). The control plane signs its forward tasks, the deletion service the tasks it
 * derives (a copy's, a lookup's resolved rows), recovery its re-applications; the deletion service trusts each key
 * only for what it is granted. A run's tasks are never signed here: they carry the control plane's authorization of
 * the run.
 */
public final class TaskSigner {

    private final SigningKey key;
    private final String signer;
    private final Clock clock;

    /** {@code signer}: the service, recorded as {@code authorizedBy}. */
    public TaskSigner(SigningKey key, String signer, Clock clock) {
        this.key = key;
        this.signer = signer;
        this.clock = clock;
    }

    public String keyId() {
        return key.keyId();
    }

    /** {@code task} carrying its own signature; a task that already carries an authority is returned as it is. */
    public DeletionTask sign(DeletionTask task) {
        if (task.authority() != null) {
            return task;
        }
        Authorization.Kind kind = task.authorizationKind();
        if (kind == Authorization.Kind.RUN) {
            throw new IllegalStateException("task " + task.taskId() + " of run " + task.originId() + " has no"
                    + " authorization: a run's tasks carry the control plane's DeletionAuthorized, never a publisher's"
                    + " signature");
        }
        Authorization signed = key.sign(Authorization.unsigned(
                kind,
                task.originId(),
                task.dataset(),
                SpecDigest.of(task.spec()),
                task.contentId(),
                task.cutoff().micros(),
                kind.name(),
                signer,
                clock.instant()));
        return task.withAuthority(TaskAuthority.of(signed));
    }
}
