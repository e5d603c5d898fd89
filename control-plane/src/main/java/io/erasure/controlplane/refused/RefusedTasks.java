package io.erasure.controlplane.refused;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many tasks claiming a run or a forward request the deletion service refused as not proven authentic, and the
 * latest of them. They deleted nothing and changed nothing of the run or request: anyone who can produce to the task
 * topic can claim its ids. Many, or a reason other than a forgery (a final set that is missing or altered), are for an
 * operator to look into. Shown as the run's {@code counts.refusedTasks} and as the request view's {@code refusedTasks}.
 *
 * @param count             refused tasks that claimed it, each counted once
 * @param latestReason      why the latest was refused
 * @param latestReasonClass the latest reason's short class (the deletion service's metric tag), e.g. {@code unsigned}
 * @param latestKind        the kind of authorization the latest needed (RUN, FORWARD or COPY)
 * @param latestTaskId      the id the latest said it had
 * @param latestKeyId       the key the latest's authorization named, or null
 * @param latestAt          when the deletion service read the latest
 */
public record RefusedTasks(
        long count,
        String latestReason,
        String latestReasonClass,
        String latestKind,
        String latestTaskId,
        String latestKeyId,
        Instant latestAt) {

    /** As the run's {@code counts.refusedTasks}. */
    public Map<String, Object> asCounts() {
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("count", count);
        counts.put("latestReason", latestReason);
        counts.put("latestReasonClass", latestReasonClass);
        counts.put("latestKind", latestKind);
        counts.put("latestTaskId", latestTaskId);
        counts.put("latestKeyId", latestKeyId);
        counts.put("latestAt", latestAt.toString());
        return counts;
    }
}
