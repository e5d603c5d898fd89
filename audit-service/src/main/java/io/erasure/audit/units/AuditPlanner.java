package io.erasure.audit.units;

import io.erasure.audit.cassandra.ClusterBackupSource;
import io.erasure.audit.rds.ExportedTable;
import io.erasure.audit.rds.RdsExports;
import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.ColumnTypes;
import io.erasure.identifiers.IdentifierKind;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.AuditRequested;
import io.erasure.model.identifier.IdentifierSource;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Turns an {@code AuditRequested} into an {@link AuditPlan}: picks the newest complete snapshot of the dataset's
 * backup (or its Cassandra cluster's backup) and of its identifier source's backup, checks that both have the
 * columns the audit needs, and fixes the deletable threshold. Reads manifests only, never a live store.
 *
 * <p>Idempotent: a plan already stored for the run is returned as it is, so a redelivered request
 * audits the same snapshots even if a newer backup appeared since.
 */
public final class AuditPlanner {

    private final BackupBucket bucket;
    private final AuditProgress progress;
    private final Clock clock;
    private final ClusterBackupSource clusterBackups;
    private final RdsExports exports;

    public AuditPlanner(BackupBucket bucket, AuditProgress progress, Clock clock, ClusterBackupSource clusterBackups) {
        this.bucket = bucket;
        this.progress = progress;
        this.clock = clock;
        this.clusterBackups = clusterBackups;
        this.exports = RdsExports.of(bucket);
    }

    /** A planner whose Cassandra backups' audits read SSTables on this JVM's runtime-cassandra classpath (tests). */
    public AuditPlanner(BackupBucket bucket, AuditProgress progress, Clock clock) {
        this(bucket, progress, clock, ClusterBackupSource.onRuntimeClasspath(bucket));
    }

    /**
     * @throws AuditFailure if a backup is missing, invalid, or lacks a column the audit needs
     */
    public AuditPlan plan(String runId, AuditRequested request) {
        Optional<AuditPlan> existing = progress.plan(runId);
        if (existing.isPresent()) {
            return existing.get();
        }
        DatasetSpec spec = request.spec();
        IdentifierSource source = request.identifierSource();
        Instant now = clock.instant();

        DataBackup data = switch (spec.backup().layout()) {
            case PLATFORM -> platformData(spec);
            case MEDUSA, NODETOOL_SNAPSHOT -> clusterData(spec, now);
            case RDS_EXPORT -> exportedData(spec, now);
        };

        String identifierManifestKey = latestManifestKey("identifier source '" + source.name() + "'", source.backup());
        BackupManifest identifiers = readManifest(identifierManifestKey);
        ColumnSchema sourceIdentifier = requireColumn(
                identifiers.schema(),
                identifierManifestKey,
                source.identifierColumn(),
                "the identifier source's identifier column");
        requireColumn(
                identifiers.schema(),
                identifierManifestKey,
                source.deletableSinceColumn(),
                "the identifier source's deletable-since column");

        // deletable since before now - grace, and as of the identifier backup (a later mark is newer than it)
        long graceLimit = CutoffTimestamp.toMicros(now.minus(source.gracePeriod()));
        long deletableUpTo = Math.min(graceLimit, identifiers.cutoffMicros());
        String dataIdentifierType = data.identifierType();
        AuditPlan plan = new AuditPlan(
                runId,
                spec.name(),
                data.key(),
                data.snapshot(),
                data.cutoffMicros(),
                data.unitKeys(),
                data.totalRows(),
                identifierManifestKey,
                source.identifierColumn(),
                source.deletableSinceColumn(),
                // the SSTable reader spells every identifier type as text (an integer's digits)
                dataIdentifierType == null
                        ? IdentifierKind.STRING
                        : identifierKind(sourceIdentifier.type(), dataIdentifierType),
                deletableUpTo,
                now,
                spec.backup(),
                data.exported());
        progress.savePlan(plan);
        return plan;
    }

    /**
     * The data side of a plan.
     *
     * @param key            the data manifest's key, or a Cassandra backup's folder
     * @param unitKeys       the parts' keys, or a Cassandra backup's token ranges
     * @param identifierType the identifier column's type in the manifest; null for a Cassandra backup, whose columns
     *                       the SSTable reader checks against the backup's {@code schema.cql}
     * @param exported       an RDS export's table as planned, else null
     */
    private record DataBackup(
            String key,
            String snapshot,
            long cutoffMicros,
            List<String> unitKeys,
            long totalRows,
            @Nullable String identifierType,
            @Nullable ExportedTable exported) {}

    private DataBackup platformData(DatasetSpec spec) {
        String dataManifestKey = latestManifestKey("dataset '" + spec.name() + "'", spec.backup());
        BackupManifest data = readManifest(dataManifestKey);
        ColumnSchema dataIdentifier = requireColumn(
                data.schema(), dataManifestKey, spec.identifierColumn(), "the dataset's identifier column");
        for (String keyColumn : spec.keyColumns().primaryKey()) {
            requireColumn(
                    data.schema(), dataManifestKey, keyColumn, "a primary key column of dataset '" + spec.name() + "'");
        }
        return new DataBackup(
                dataManifestKey,
                data.snapshot(),
                data.cutoffMicros(),
                data.parts().stream()
                        .map(part -> BackupBucket.partKey(dataManifestKey, part))
                        .toList(),
                data.totalRows(),
                dataIdentifier.type(),
                null);
    }

    /** A Cassandra cluster's backups: the newest complete one, cut off at its start, in units of the token ring. */
    private DataBackup clusterData(DatasetSpec spec, Instant now) {
        try {
            spec.requireBackupFits();
            ClusterBackupSource.Planned planned = clusterBackups.plan(spec.backup(), spec, now);
            return new DataBackup(
                    planned.backup().folder(),
                    planned.backup().name(),
                    planned.cutoffMicros(),
                    planned.unitKeys(),
                    0,
                    null,
                    null);
        } catch (BackupIntegrityException | IllegalArgumentException e) {
            throw new AuditFailure(e.getMessage(), e);
        }
    }

    /** Amazon RDS exports of a PostgreSQL table: the newest complete one, cut off at its snapshot, a unit per file. */
    private DataBackup exportedData(DatasetSpec spec, Instant now) {
        try {
            spec.requireBackupFits();
            RdsExports.Planned planned = exports.latestComplete(spec.backup(), spec, now);
            ExportedTable table = planned.table();
            return new DataBackup(
                    planned.folder(),
                    planned.id(),
                    planned.cutoffMicros(),
                    table.parts().stream().map(p -> p.key()).toList(),
                    0,
                    table.schema().columns().stream()
                            .filter(c -> c.name().equals(spec.identifierColumn()))
                            .findFirst()
                            .orElseThrow()
                            .type(),
                    table);
        } catch (BackupIntegrityException | IllegalArgumentException e) {
            throw new AuditFailure(e.getMessage(), e);
        }
    }

    /** Integers compare as integers only when both backups type the identifier as an integer type. */
    static IdentifierKind identifierKind(String identifierBackupType, String dataBackupType) {
        return ColumnTypes.isIntegral(identifierBackupType) && ColumnTypes.isIntegral(dataBackupType)
                ? IdentifierKind.NUMERIC
                : IdentifierKind.STRING;
    }

    private String latestManifestKey(String what, BackupLocation location) {
        String snapshot = bucket.latestCompleteSnapshot(location)
                .orElseThrow(() -> new AuditFailure("no complete backup of " + what + " under " + location.prefix()
                        + ": a snapshot is complete once its " + S3Layout.MANIFEST + " exists"));
        return S3Layout.manifestKey(location, snapshot);
    }

    private BackupManifest readManifest(String key) {
        try {
            BackupManifest manifest = bucket.readManifest(key);
            BackupBucket.requireCutoffBefore(manifest, key, clock.instant(), "now");
            return manifest;
        } catch (BackupIntegrityException e) {
            throw new AuditFailure(e.getMessage(), e);
        }
    }

    private static ColumnSchema requireColumn(BackupSchema schema, String manifestKey, String column, String role) {
        List<ColumnSchema> columns = schema.columns();
        return columns.stream()
                .filter(c -> c.name().equals(column))
                .findFirst()
                .orElseThrow(() -> new AuditFailure(
                        "backup " + manifestKey + " has no column '" + column + "' (" + role + "); its columns are "
                                + columns.stream().map(ColumnSchema::name).toList()));
    }
}
