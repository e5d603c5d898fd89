package io.erasure.controlplane.run;

import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.StoreKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the deletion of one copy of a run's dataset stands: what its batches reported and which of them
 * failed for good.
 *
 * @param dataset the copy's view name, {@code <source>--<copy>}, as its batches and deletion records carry it
 */
public record CopyTotals(String dataset, StoreKind storeKind, BatchTotals reported, List<BatchFailure> failedBatches) {

    public CopyTotals {
        failedBatches = List.copyOf(failedBatches);
    }

    /** Every copy in the run's frozen spec, in its order, with what its batches reported (nothing yet for some). */
    public static Map<String, CopyTotals> of(
            RunRecord run, Map<String, BatchTotals> totalsByDataset, List<BatchFailure> failures) {
        Map<String, CopyTotals> copies = new LinkedHashMap<>();
        for (DatasetCopy copy : run.spec().copies()) {
            String view = copy.viewName(run.dataset());
            copies.put(
                    copy.name(),
                    new CopyTotals(
                            view,
                            copy.storeKind(),
                            totalsByDataset.getOrDefault(view, BatchTotals.NONE),
                            failures.stream()
                                    .filter(f -> view.equals(f.dataset()))
                                    .toList()));
        }
        return copies;
    }
}
