package io.erasure.model.backup;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code manifest.json} of one backup snapshot. A snapshot without a manifest is incomplete and is
 * never audited. {@code cutoffMicros} is the export's start minus the clock-skew margin: a run
 * that audits this snapshot never deletes anything written after it.
 */
public record BackupManifest(
        String dataset,
        String snapshot,
        BackupFormat format,
        BackupSchema schema,
        long cutoffMicros,
        List<ManifestPart> parts) {

    public BackupManifest {
        Names.datasetName("dataset", dataset);
        S3Layout.parseSnapshot(snapshot);
        Require.nonNull("format", format);
        Require.nonNull("schema", schema);
        Require.positive("cutoffMicros", cutoffMicros);
        parts = Require.listOf("parts", parts);
        Set<Integer> indexes = new HashSet<>();
        for (ManifestPart part : parts) {
            int index = S3Layout.parsePartIndex(part.name());
            Require.that(
                    part.name().endsWith(format.extension()),
                    "parts.name '" + part.name() + "' must end with " + format.extension() + " for format " + format);
            Require.that(indexes.add(index), "parts lists part " + index + " twice");
        }
    }

    public CutoffTimestamp cutoff() {
        return CutoffTimestamp.ofMicros(cutoffMicros);
    }

    public long totalRows() {
        return parts.stream().mapToLong(ManifestPart::rowCount).sum();
    }
}
