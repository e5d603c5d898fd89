package io.erasure.audit.units;

import io.erasure.audit.medusa.MedusaSource;
import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.ColumnTypes;
import io.erasure.identifiers.IdentifierKind;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupLayout;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.AuditRequested;
import io.erasure.model.identifier.IdentifierSource;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Turns an {@code AuditRequested} into an {@link AuditPlan}: picks the newest complete snapshot of
 * the dataset's backup (or Medusa backup) and of its identifier source's backup, checks that both have the columns
 * the audit needs, and fixes the deletable threshold. Reads manifests only, never a live store.
 *
 * <p>Idempotent: a plan already stored for the run is returned as it is, so a redelivered request
 * audits the same snapshots even if a newer backup appeared since.
 */
public final class AuditPlanner {

    private final BackupBucket bucket;
    private final AuditProgress progress;
    private final Clock clock;
    private final MedusaSource medusa;

    public AuditPlanner(BackupBucket bucket, AuditProgress progress, Clock clock, MedusaSource medusa) {
        this.bucket = bucket;
        this.progress = progress;
        this.clock = clock;
        this.medusa = medusa;
    }

    /** A planner whose Medusa audits read SSTables on this JVM's runtime-cassandra classpath (tests). */
    public AuditPlanner(BackupBucket bucket, AuditProgress progress, Clock clock) {
        this(bucket, progress, clock, MedusaSource.onRuntimeClasspath(bucket));
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

        AuditPlan plan = spec.backup().layout() == BackupLayout.MEDUSA
                ? medusaPlan(runId, spec, source, identifierManifestKey, deletableUpTo, now)
                : platformPlan(runId, spec, source, identifierManifestKey, sourceIdentifier, deletableUpTo, now);
        progress.savePlan(plan);
        return plan;
    }

    private AuditPlan platformPlan(
            String runId,
            DatasetSpec spec,
            IdentifierSource source,
            String identifierManifestKey,
            ColumnSchema sourceIdentifier,
            long deletableUpTo,
            Instant now) {
        String dataManifestKey = latestManifestKey("dataset '" + spec.name() + "'", spec.backup());
        BackupManifest data = readManifest(dataManifestKey);
        ColumnSchema dataIdentifier = requireColumn(
                data.schema(), dataManifestKey, spec.identifierColumn(), "the dataset's identifier column");
        for (String keyColumn : spec.keyColumns().primaryKey()) {
            requireColumn(
                    data.schema(), dataManifestKey, keyColumn, "a primary key column of dataset '" + spec.name() + "'");
        }
        return new AuditPlan(
                runId,
                spec.name(),
                dataManifestKey,
                data.snapshot(),
                data.cutoffMicros(),
                data.parts().stream()
                        .map(part -> BackupBucket.partKey(dataManifestKey, part))
                        .toList(),
                data.totalRows(),
                identifierManifestKey,
                source.identifierColumn(),
                source.deletableSinceColumn(),
                identifierKind(sourceIdentifier.type(), dataIdentifier.type()),
                deletableUpTo,
                now,
                spec.backup());
    }

    /**
     * A Medusa backup's plan: its newest complete backup, cut off at its start, in units of the token ring. Its
     * columns are checked by the SSTable reader against the backup's {@code schema.cql}; identifiers compare as text
     * (an integer's digits), which the reader spells for every identifier type.
     */
    private AuditPlan medusaPlan(
            String runId,
            DatasetSpec spec,
            IdentifierSource source,
            String identifierManifestKey,
            long deletableUpTo,
            Instant now) {
        MedusaSource.Planned medusa;
        try {
            medusa = this.medusa.plan(spec.backup(), spec, now);
        } catch (BackupIntegrityException e) {
            throw new AuditFailure(e.getMessage(), e);
        }
        return new AuditPlan(
                runId,
                spec.name(),
                medusa.metaKey(),
                medusa.backup().name(),
                medusa.cutoffMicros(),
                medusa.unitKeys(),
                0,
                identifierManifestKey,
                source.identifierColumn(),
                source.deletableSinceColumn(),
                IdentifierKind.STRING,
                deletableUpTo,
                now,
                spec.backup());
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
