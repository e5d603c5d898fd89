package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

/** Command: stop the run; work not yet done is dropped. */
public record RunCancelled(String dataset, String cancelledBy, String reason) implements EventPayload, RunScoped {

    public RunCancelled {
        Names.datasetName("dataset", dataset);
        Require.nonBlank("cancelledBy", cancelledBy);
        Require.nonBlank("reason", reason);
    }
}
