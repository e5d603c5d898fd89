package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

/**
 * Event: a forward lookup task ({@code DeletionTask#forwardLookup}) was resolved. It deletes nothing itself: it
 * published ordinary tasks for the rows its identifiers found, each of which reports its own batches
 * ({@link BatchCompleted}), or it was refused because the dataset cannot be looked up by its identifier. The control
 * plane waits for this report of every lookup of a target before it counts the target's keys.
 *
 * <p>Redelivered lookups report again with the tasks they first published ({@code LookupResolutions} in the deletion
 * service), so reports of one lookup never disagree.
 *
 * @param dataset    the dataset looked up
 * @param taskId     the lookup task's id
 * @param batchId    the lookup's only batch ({@code DeletionTask#batchId(0)}): the unit its report is applied once by
 * @param requestId  the forward-deletion request the lookup belongs to (lookups exist only in forward deletion)
 * @param resolution the tasks it published and their keys, or why it was refused
 */
public record LookupResolved(
        String dataset, String taskId, String batchId, String requestId, LookupResolution resolution)
        implements EventPayload {

    public LookupResolved {
        Names.datasetName("dataset", dataset);
        Names.opaqueId("taskId", taskId);
        Names.opaqueId("batchId", batchId);
        Names.opaqueId("requestId", requestId);
        Require.nonNull("resolution", resolution);
    }
}
