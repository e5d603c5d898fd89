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
public record ForwardDeletionRequested(
        String aggregateType,
        String aggregateId,
        long version,
        Instant tombstonedAt,
        Map<String, List<String>> childIds,
        String requestedBy)
        implements EventPayload {

    /** The most identifier sources one request names children of. */
    public static final int MAX_CHILD_TYPES = 32;
    /**
     * The most child identifiers of one request, over all sources: a customer's orders and accounts, with room to
     * spare, while a request stays one small event and a few tasks per dataset.
     */
    public static final int MAX_CHILD_IDS = 10_000;

    public ForwardDeletionRequested {
        Names.datasetName("aggregateType", aggregateType);
        Require.nonBlank("aggregateId", aggregateId);
        Require.positive("version", version);
        Require.nonNull("tombstonedAt", tombstonedAt);
        childIds = copyLists(requireChildIds(childIds));
        Require.nonBlank("requestedBy", requestedBy);
    }

    /**
     * Checks a request's child identifiers: at most {@value #MAX_CHILD_TYPES} sources, each a source name, and
     * {@value #MAX_CHILD_IDS} identifiers in all, none null. Null is no children.
     */
    public static Map<String, List<String>> requireChildIds(Map<String, List<String>> childIds) {
        if (childIds == null) {
            return Map.of();
        }
        Require.mapOf("childIds", childIds, MAX_CHILD_TYPES);
        long total = 0;
        for (Map.Entry<String, List<String>> children : childIds.entrySet()) {
            Names.datasetName("childIds key", children.getKey());
            Require.listOf("childIds." + children.getKey(), children.getValue(), MAX_CHILD_IDS);
            total += children.getValue().size();
        }
        if (total > MAX_CHILD_IDS) {
            throw new IllegalArgumentException("childIds has " + total + " identifiers in all; at most " + MAX_CHILD_IDS
                    + " are allowed per request: send the rest as requests of their own sources");
        }
        return childIds;
    }

    private static Map<String, List<String>> copyLists(Map<String, List<String>> childIds) {
        Map<String, List<String>> copy = new HashMap<>();
        childIds.forEach((type, ids) -> copy.put(type, List.copyOf(ids)));
        return Map.copyOf(copy);
    }
}
