package io.erasure.audit.units;

import io.erasure.audit.rds.ExportedTable;
import io.erasure.identifiers.IdentifierKind;
import io.erasure.model.check.Require;
import io.erasure.model.dataset.BackupLayout;
import io.erasure.model.dataset.BackupLocation;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one audit reads, fixed once when the run's {@code AuditRequested} is first handled and
 * stored with the run ({@code runs/<runId>/audit/plan.json}), so that every replica and every redo
 * of a unit joins the same snapshots against the same identifiers.
 *
 * @param dataManifestKey       the data snapshot audited (its newest complete one at planning time)
 * @param partKeys              its parts in manifest order: unit {@code i} joins part {@code i}
 * @param identifierManifestKey the identifier source snapshot read
 * @param sourceIdentifierColumn the identifier source's identifier column
 * @param deletableSinceColumn  the identifier source's column saying since when an identifier may be deleted
 * @param identifierKind        how identifiers compare (numeric or hashed text), from both manifests' column types
 * @param deletableUpToMicros   an identifier is deletable if its deletable-since time is at or before this:
 *                              {@code min(plannedAt - grace period, identifier backup's cutoff)}
 * @param dataLocation          where the data backup lies (null in plans stored before layouts existed: the
 *                              platform's own); for a {@link BackupLayout#MEDUSA} backup, {@code snapshot} is the
 *                              backup's name, {@code dataManifestKey} the first node's {@code meta/} folder and the
 *                              part keys the units' token ranges
 * @param exported              for an {@link BackupLayout#RDS_EXPORT} backup, the exported table as planned: its
 *                              columns' types and its Parquet files with their sizes and ETags (the part keys are
 *                              theirs, {@code snapshot} is the export's identifier); null for other layouts
 */
public record AuditPlan(
        String runId,
        String dataset,
        String dataManifestKey,
        String snapshot,
        long cutoffMicros,
        List<String> partKeys,
        long totalRows,
        String identifierManifestKey,
        String sourceIdentifierColumn,
        String deletableSinceColumn,
        IdentifierKind identifierKind,
        long deletableUpToMicros,
        Instant plannedAt,
        @Nullable BackupLocation dataLocation,
        @Nullable ExportedTable exported) {

    public AuditPlan {
        Require.nonBlank("runId", runId);
        Require.nonBlank("dataManifestKey", dataManifestKey);
        Require.nonBlank("identifierManifestKey", identifierManifestKey);
        Require.nonBlank("sourceIdentifierColumn", sourceIdentifierColumn);
        Require.nonBlank("deletableSinceColumn", deletableSinceColumn);
        Require.nonNull("identifierKind", identifierKind);
        partKeys = Require.listOf("partKeys", partKeys);
        Require.nonNull("plannedAt", plannedAt);
        if (exported != null
                && !exported.parts().stream().map(p -> p.key()).toList().equals(partKeys)) {
            throw new IllegalArgumentException("an exported table's parts are the plan's parts, in order");
        }
        if (layout() == BackupLayout.RDS_EXPORT && exported == null) {
            throw new IllegalArgumentException("the plan of an RDS_EXPORT backup holds its exported table");
        }
    }

    /** How the data backup is laid out, so how its units are read. */
    public BackupLayout layout() {
        return dataLocation == null ? BackupLayout.PLATFORM : dataLocation.layout();
    }

    public int partCount() {
        return partKeys.size();
    }
}
