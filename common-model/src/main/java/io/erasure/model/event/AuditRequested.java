package io.erasure.model.event;

import io.erasure.model.check.Require;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.identifier.IdentifierSource;

/** Command: audit the run's dataset against its identifier source, both as frozen by the run. */
public record AuditRequested(DatasetSpec spec, IdentifierSource identifierSource, boolean dryRun)
        implements EventPayload, RunScoped {

    public AuditRequested {
        Require.nonNull("spec", spec);
        Require.nonNull("identifierSource", identifierSource);
        if (!identifierSource.name().equals(spec.identifierSource())) {
            throw new IllegalArgumentException("identifierSource '" + identifierSource.name() + "' is not the source '"
                    + spec.identifierSource() + "' named by dataset '" + spec.name() + "'");
        }
    }
}
