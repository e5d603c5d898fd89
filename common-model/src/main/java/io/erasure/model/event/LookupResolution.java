package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.util.List;

/**
 * What a forward lookup task found (see {@code DeletionTask#forwardLookup}): the ordinary tasks it published
 * for the rows of its identifiers, and how many keys they hold; or why the dataset cannot be looked up by its
 * identifier (no index on the column, a store without lookups), in which case nothing was published and the
 * nightly audit covers the dataset.
 *
 * @param taskIds the tasks published, each reporting its own batches; empty when the identifiers have no rows
 * @param keys    the keys those tasks hold together
 * @param refusal null, or why the identifier cannot be looked up, with the fix
 */
public record LookupResolution(List<String> taskIds, long keys, String refusal) {

    public LookupResolution {
        taskIds = Require.listOf("resolution.taskIds", taskIds);
        taskIds.forEach(id -> Names.opaqueId("resolution.taskIds[]", id));
        Require.nonNegative("resolution.keys", keys);
        Require.that(
                refusal == null || taskIds.isEmpty() && keys == 0,
                "a refused lookup publishes no task, got " + taskIds.size() + " tasks");
    }

    public static LookupResolution refused(String reason) {
        return new LookupResolution(List.of(), 0, Require.nonNull("refusal", reason));
    }

    public boolean refused() {
        return refusal != null;
    }
}
