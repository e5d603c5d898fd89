package io.erasure.controlplane.forward;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /api/forward-requests}: an identifier deleted upstream.
 *
 * @param tombstonedAt when it was deleted upstream (the cut-off); now when absent, and never later than now
 * @param childIds     dependent identifiers by their identifier source, e.g. {@code {"orders": ["7", "8"]}}
 */
public record ForwardRequestBody(String aggregateType, String aggregateId, Long version, Instant tombstonedAt,
                                 Map<String, List<String>> childIds) {

    public ForwardRequestBody {
        Names.datasetName("aggregateType", aggregateType);
        Require.nonBlank("aggregateId", aggregateId);
        if (version == null || version < 1) {
            throw new IllegalArgumentException("version is required and must be >= 1 (it orders the requests of one"
                    + " identifier), got " + version);
        }
        childIds = childIds == null ? Map.of() : childIds;
    }
}
