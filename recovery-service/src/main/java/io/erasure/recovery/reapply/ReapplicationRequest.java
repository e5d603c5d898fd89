package io.erasure.recovery.reapply;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.DatasetSpec;
import java.time.Instant;

/**
 * A request to re-apply a dataset's erasures after a restore: which erasures (deleted in [{@code from},
 * {@code to}), by default the log's whole retention; or every erasure deleted after the cut-off of the restored
 * backup {@code snapshot}), and whether to publish them or only report them ({@code dryRun}, the default).
 *
 * @param dataset   the restored dataset; {@code spec.name} must be this name
 * @param spec      optional, best omitted: each erasure is re-applied under the spec its run or request deleted under,
 *                  frozen in the deletion log, which the published tasks carry (their copies are that spec's). Sent, it
 *                  must be every such frozen spec, or the request is refused with the fields that differ
 * @param requestId the caller's id of this request: a retry with the same id (and the same dataset and window or
 *                  snapshot) publishes the same tasks, which deletion applies once. Required unless a dry-run
 * @param reason    why, for the record
 */
public record ReapplicationRequest(
        String dataset,
        DatasetSpec spec,
        Instant from,
        Instant to,
        String snapshot,
        Boolean dryRun,
        String requestId,
        String reason) {

    public ReapplicationRequest {
        Names.datasetName("dataset", dataset);
        if (spec != null && !dataset.equals(spec.name())) {
            throw new IllegalArgumentException("spec.name '" + spec.name() + "' must be the dataset '" + dataset
                    + "': send the spec of the restored dataset");
        }
        Require.nonBlank("reason (why the erasures are re-applied, for the record)", reason);
        if (snapshot != null) {
            if (from != null || to != null) {
                throw new IllegalArgumentException(
                        "snapshot and from/to exclude each other: give the restored snapshot, or a"
                                + " deletedAt window");
            }
            S3Layout.parseSnapshot(snapshot);
        }
        if (from != null && to != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("from must be before to, got from=" + from + ", to=" + to);
        }
        dryRun = dryRun == null || dryRun; // nothing is published unless the caller says so
        if (requestId == null && !dryRun) {
            throw new IllegalArgumentException("requestId is required unless dryRun: your id of this request, so that a"
                    + " retry publishes the same tasks");
        }
        if (requestId != null) {
            Names.opaqueId("requestId", requestId);
        }
    }

    /** What the caller asked for, before defaults: part of the published tasks' origin id. */
    String scopeText() {
        return snapshot != null
                ? "snapshot:" + snapshot
                : "window:" + (from == null ? "retention" : from.toString()) + ".."
                        + (to == null ? "now" : to.toString());
    }
}
