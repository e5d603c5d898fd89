package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

/** Event: the audit could not finish; the run fails. */
public record AuditFailed(String dataset, String reason) implements EventPayload, RunScoped {

    public AuditFailed {
        Names.datasetName("dataset", dataset);
        Require.nonBlank("reason", reason);
    }
}
