package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

/**
 * Command: the run may delete its final set. Only the control plane sends it: after a human
 * approval, or at once when the run is under its dataset's limit.
 */
public record DeletionAuthorized(String dataset, Basis basis, String authorizedBy) implements EventPayload, RunScoped {

    public enum Basis { APPROVED, UNDER_LIMIT }

    public DeletionAuthorized {
        Names.datasetName("dataset", dataset);
        Require.nonNull("basis (APPROVED or UNDER_LIMIT)", basis);
        Require.nonBlank("authorizedBy", authorizedBy);
    }
}
