package io.erasure.controlplane.forward;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** One row of {@code deletion_requests}. {@code tombstonedAt} is the cut-off of every delete it causes. */
public record DeletionRequest(
        String id,
        Instant createdAt,
        String aggregateType,
        String aggregateId,
        long version,
        RequestState state,
        Instant tombstonedAt,
        Instant publishedAt,
        Instant purgedAt,
        UUID eventId,
        UUID originChainId,
        Map<String, List<String>> childIds,
        String requestedBy,
        String heldReason,
        String approvedBy) {}
