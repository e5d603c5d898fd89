package io.erasure.controlplane.forward;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.erasure.controlplane.refused.RefusedTasks;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A deletion request as the API shows it; {@code targets} is null in lists. {@code refusedTasks} (absent when there
 * are none) counts the tasks claiming this request that the deletion service refused as not proven authentic: they
 * deleted nothing and changed nothing of the request.
 */
public record RequestView(
        String id,
        String aggregateType,
        String aggregateId,
        long version,
        RequestState state,
        Instant cutoff,
        Instant createdAt,
        Instant publishedAt,
        Instant purgedAt,
        String requestedBy,
        String heldReason,
        String approvedBy,
        UUID eventId,
        UUID originChainId,
        Map<String, List<String>> childIds,
        List<ForwardTarget> targets,
        @JsonInclude(JsonInclude.Include.NON_NULL) RefusedTasks refusedTasks) {

    static RequestView of(DeletionRequest r, List<ForwardTarget> targets, RefusedTasks refusedTasks) {
        return new RequestView(
                r.id(),
                r.aggregateType(),
                r.aggregateId(),
                r.version(),
                r.state(),
                r.tombstonedAt(),
                r.createdAt(),
                r.publishedAt(),
                r.purgedAt(),
                r.requestedBy(),
                r.heldReason(),
                r.approvedBy(),
                r.eventId(),
                r.originChainId(),
                r.childIds(),
                targets,
                refusedTasks);
    }
}
