package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * "Identifier deleted", from an upstream system: every addressable row of {@code aggregateId} must
 * go now. {@code aggregateType} names the identifier source (e.g. {@code customers});
 * {@code childIds} lists dependent identifiers by their source name. {@code tombstonedAt} is the
 * cut-off of the resulting deletes, and {@code version} orders requests for the same identifier.
 */
public record ForwardDeletionRequested(String aggregateType, String aggregateId, long version, Instant tombstonedAt,
                                       Map<String, List<String>> childIds, String requestedBy) implements EventPayload {

    public ForwardDeletionRequested {
        Names.datasetName("aggregateType", aggregateType);
        Require.nonBlank("aggregateId", aggregateId);
        Require.positive("version", version);
        Require.nonNull("tombstonedAt", tombstonedAt);
        childIds = childIds == null ? Map.of() : Require.mapOf("childIds", childIds);
        childIds.forEach((type, ids) -> {
            Names.datasetName("childIds key", type);
            Require.listOf("childIds." + type, ids);
        });
        childIds = copyLists(childIds);
        Require.nonBlank("requestedBy", requestedBy);
    }

    private static Map<String, List<String>> copyLists(Map<String, List<String>> childIds) {
        Map<String, List<String>> copy = new HashMap<>();
        childIds.forEach((type, ids) -> copy.put(type, List.copyOf(ids)));
        return Map.copyOf(copy);
    }
}
