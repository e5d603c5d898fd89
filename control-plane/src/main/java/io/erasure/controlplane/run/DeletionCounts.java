package io.erasure.controlplane.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * Where the deletion of a run stands, as the run's counts keep it while the batches report: the top-level entries
 * {@code deletion} (its own dataset) and {@code copies} (absent for a dataset without copies).
 *
 * @param copies each copy of the frozen spec by name, in its order ({@link CopyTotals#of}); null when it has none
 */
public record DeletionCounts(
        BatchTotals deletion,
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, CopyTotals> copies) {}
