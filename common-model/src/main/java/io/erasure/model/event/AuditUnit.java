package io.erasure.model.event;

import io.erasure.model.check.Require;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;

/**
 * Work unit: join one part of the data backup against the identifier backup. Units of a run are
 * shared by the audit consumer group; the output of unit {@code partIndex} has a fixed key, so a
 * redelivered unit overwrites its own output.
 */
public record AuditUnit(
        DatasetSpec spec,
        String dataManifestKey,
        String partKey,
        int partIndex,
        int partCount,
        String identifierManifestKey,
        CutoffTimestamp cutoff)
        implements EventPayload, RunScoped {

    public AuditUnit {
        Require.nonNull("spec", spec);
        Require.nonBlank("dataManifestKey", dataManifestKey);
        Require.nonBlank("partKey", partKey);
        Require.positive("partCount", partCount);
        Require.inRange("partIndex", partIndex, 0, partCount - 1);
        Require.nonBlank("identifierManifestKey", identifierManifestKey);
        Require.nonNull("cutoff", cutoff);
    }
}
