package io.erasure.controlplane.forward;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A deletion request as the API shows it; {@code targets} is null in lists. */
public record RequestView(String id, String aggregateType, String aggregateId, long version, RequestState state,
                          Instant cutoff, Instant createdAt, Instant publishedAt, Instant purgedAt, String requestedBy,
                          String heldReason, String approvedBy, UUID eventId, UUID originChainId,
                          Map<String, List<String>> childIds, List<ForwardTarget> targets) {

    static RequestView of(DeletionRequest r, List<ForwardTarget> targets) {
        return new RequestView(r.id(), r.aggregateType(), r.aggregateId(), r.version(), r.state(), r.tombstonedAt(),
                r.createdAt(), r.publishedAt(), r.purgedAt(), r.requestedBy(), r.heldReason(), r.approvedBy(), r.eventId(),
                r.originChainId(), r.childIds(), targets);
    }
}
