package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

/** Event: validation could not finish; the run fails. */
public record ValidationFailed(String dataset, String reason) implements EventPayload, RunScoped {

    public ValidationFailed {
        Names.datasetName("dataset", dataset);
        Require.nonBlank("reason", reason);
    }
}
