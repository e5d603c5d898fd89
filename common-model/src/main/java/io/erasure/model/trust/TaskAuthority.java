package io.erasure.model.trust;

import io.erasure.model.check.Require;
import org.jspecify.annotations.Nullable;

/**
 * What a deletion task carries to prove it may delete: its {@link Authorization}, and for a run's task the index of
 * the final-set part its keys come from ({@code runs/<runId>/final/part-NNNNN.jsonl.gz}), which the deletion service
 * reads (checked against the signed manifest) to see that every key of the task is in the authorized final set.
 * {@code finalPart} is null on every other kind of task.
 */
public record TaskAuthority(
        Authorization authorization, @Nullable Integer finalPart) {

    public TaskAuthority {
        Require.nonNull("authority.authorization", authorization);
        if (finalPart != null) {
            Require.inRange("authority.finalPart", finalPart, 0, 99_999);
        }
        if ((authorization.kind() == Authorization.Kind.RUN) != (finalPart != null)) {
            throw new IllegalArgumentException(
                    "authority.finalPart names the final-set part of a run's task, and only of" + " one: kind "
                            + authorization.kind() + ", finalPart " + finalPart);
        }
    }

    public static TaskAuthority ofRun(Authorization runAuthorization, int finalPart) {
        return new TaskAuthority(runAuthorization, finalPart);
    }

    public static TaskAuthority of(Authorization taskAuthorization) {
        return new TaskAuthority(taskAuthorization, null);
    }
}
