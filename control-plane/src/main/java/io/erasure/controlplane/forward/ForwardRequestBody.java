package io.erasure.controlplane.forward;

import io.erasure.model.check.Allowed;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.event.ForwardDeletionRequested;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /api/forward-requests}: an identifier deleted upstream.
 *
 * @param tombstonedAt when it was deleted upstream (the cut-off); now when absent, and never later than now
 * @param childIds     dependent identifiers by their identifier source, e.g. {@code {"orders": ["7", "8"]}}: at most
 *                     {@value ForwardDeletionRequested#MAX_CHILD_IDS} in all, of
 *                     {@value ForwardDeletionRequested#MAX_CHILD_TYPES} sources
 */
public record ForwardRequestBody(
        String aggregateType,
        String aggregateId,

        @Allowed("an integer between 1 and " + Long.MAX_VALUE)
        Long version,

        @Allowed("an ISO-8601 instant such as 2026-01-31T00:00:00Z")
        Instant tombstonedAt,

        Map<String, List<String>> childIds) {

    public ForwardRequestBody {
        Names.datasetName("aggregateType", aggregateType);
        Require.nonBlank("aggregateId", aggregateId);
        if (version == null || version < 1) {
            throw new IllegalArgumentException("version is required and must be >= 1 (it orders the requests of one"
                    + " identifier), got " + version);
        }
        childIds = ForwardDeletionRequested.requireChildIds(childIds);
    }
}
