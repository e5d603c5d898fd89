package io.erasure.audit.units;

import io.erasure.audit.candidates.CandidateFileWriter;
import io.erasure.audit.cassandra.ClusterBackup;
import io.erasure.audit.cassandra.ClusterBackupSource;
import io.erasure.audit.join.JoinResult;
import io.erasure.audit.join.ParquetPartJoin;
import io.erasure.audit.join.PartJoiner;
import io.erasure.audit.rds.ExportedFile;
import io.erasure.audit.rds.ExportedPart;
import io.erasure.audit.rds.ExportedTable;
import io.erasure.audit.sstable.ScanResult;
import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.MultipartUploadStream;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.AuditUnit;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.run.RunId;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one audit unit: joins one data part against the run's deletable identifiers and writes
 * its candidate file, then its done marker, then, if it was the last unit, sends AuditCompleted.
 *
 * <p>Idempotent, so a unit may be delivered any number of times, to any replica: the candidate
 * file of unit {@code i} is always {@code runs/<run>/candidates/part-<i>.jsonl.gz} with the same
 * bytes, a unit whose done marker exists is not joined again, and the completion event has a
 * deterministic id. A unit of a failed or cancelled run does nothing.
 *
 * <p>A part that is missing, corrupt or does not match its manifest fails the whole run
 * (AuditFailed with the reason); its candidate upload is aborted, so nothing partial is left.
 */
public final class UnitProcessor {

    private static final Logger log = LoggerFactory.getLogger(UnitProcessor.class);

    /** Test seam: called once a unit's candidate file is stored, before its done marker. */
    public interface Observer {
        Observer NONE = unit -> {};

        void candidatesStored(AuditUnit unit);
    }

    private final BackupBucket bucket;
    private final AuditProgress progress;
    private final RunContexts contexts;
    private final AuditEvents events;
    private final Observer observer;
    private final ClusterBackupSource clusterBackups;

    public UnitProcessor(
            BackupBucket bucket,
            AuditProgress progress,
            RunContexts contexts,
            AuditEvents events,
            Observer observer,
            ClusterBackupSource clusterBackups) {
        this.bucket = bucket;
        this.progress = progress;
        this.contexts = contexts;
        this.events = events;
        this.observer = observer;
        this.clusterBackups = clusterBackups;
    }

    /** A processor whose Cassandra backups' units run the SSTable reader on this JVM's runtime-cassandra classpath. */
    public UnitProcessor(
            BackupBucket bucket, AuditProgress progress, RunContexts contexts, AuditEvents events, Observer observer) {
        this(bucket, progress, contexts, events, observer, ClusterBackupSource.onRuntimeClasspath(bucket));
    }

    /**
     * @throws IOException if S3 could not be read or written (worth a retry; the unit is redone as a whole)
     */
    public void process(EventEnvelope envelope) throws IOException {
        AuditUnit unit = envelope.payloadAs(AuditUnit.class);
        String runId = envelope.runId();
        if (progress.stopped(runId).isPresent()) {
            log.info("run {} stopped; unit {} skipped", runId, unit.partIndex());
            return;
        }
        try {
            if (progress.unitDone(runId, unit.partIndex())) {
                // done before a crash or by another replica: only the completion check may be missing
                completeIfLast(
                        envelope,
                        progress.plan(runId)
                                .orElseThrow(() -> new AuditFailure("run " + runId + " has unit markers but no plan at "
                                        + AuditProgress.planKey(runId))));
                return;
            }
            RunContexts.RunContext context = contexts.get(runId);
            UnitOutcome outcome = join(runId, unit, context);
            observer.candidatesStored(unit);
            progress.markUnitDone(runId, outcome);
            log.info(
                    "run {} unit {}/{}: {} rows, {} candidates, {} deleted but not yet purged",
                    runId,
                    unit.partIndex() + 1,
                    unit.partCount(),
                    outcome.rowsScanned(),
                    outcome.candidates(),
                    outcome.deletedNotPurged());
            completeIfLast(envelope, context.plan());
        } catch (AuditFailure | BackupIntegrityException e) {
            fail(envelope, unit.spec().name(), e.getMessage());
        }
    }

    /** Fails the unit's run: marks it failed, so other units stop, and sends AuditFailed with the reason. */
    public void fail(EventEnvelope envelope, String dataset, String reason) {
        String runId = envelope.runId();
        log.warn("audit of run {} failed: {}", runId, reason);
        progress.markFailed(runId, reason);
        events.failed(envelope, runId, dataset, reason);
    }

    private UnitOutcome join(String runId, AuditUnit unit, RunContexts.RunContext context) throws IOException {
        ClusterBackup backup = context.cluster();
        BackupLocation location = context.plan().dataLocation();
        if (backup != null && location != null) {
            return joinCluster(runId, unit, context, backup, location);
        }
        ExportedTable exported = context.plan().exported();
        if (exported != null) {
            return joinExported(runId, unit, exported, context);
        }
        BackupManifest manifest = context.manifest();
        if (manifest == null) {
            throw new AuditFailure("run " + runId + " has neither a data manifest nor a Cassandra backup");
        }
        List<ManifestPart> parts = manifest.parts();
        if (unit.partIndex() >= parts.size()
                || !unit.partKey()
                        .equals(BackupBucket.partKey(context.plan().dataManifestKey(), parts.get(unit.partIndex())))) {
            throw new AuditFailure("unit " + unit.partIndex() + " names part " + unit.partKey() + " which is not part "
                    + unit.partIndex() + " of " + context.plan().dataManifestKey());
        }
        ManifestPart part = parts.get(unit.partIndex());
        DatasetSpec spec = unit.spec();
        PartJoiner join = PartJoiner.of(
                manifest.format(),
                manifest.schema(),
                spec.keyColumns().primaryKey(),
                spec.identifierColumn(),
                context.identifiers());
        return withCandidates(runId, unit, candidates -> {
            try (InputStream raw = bucket.openPart(unit.partKey())) {
                JoinResult result = join.join(raw, part, candidates);
                return new UnitOutcome(unit.partIndex(), result.rowsScanned(), result.candidates());
            }
        });
    }

    /** One Parquet file of an RDS export, read where it lies, only while it is the object planned (its ETag). */
    private UnitOutcome joinExported(String runId, AuditUnit unit, ExportedTable table, RunContexts.RunContext context)
            throws IOException {
        AuditPlan plan = context.plan();
        if (unit.partIndex() >= plan.partCount()
                || !unit.partKey().equals(plan.partKeys().get(unit.partIndex()))) {
            throw new AuditFailure("unit " + unit.partIndex() + " names " + unit.partKey() + ", which is not part "
                    + unit.partIndex() + " of " + table.target() + " in RDS export " + plan.snapshot());
        }
        ExportedPart part = table.parts().get(unit.partIndex());
        DatasetSpec spec = unit.spec();
        ParquetPartJoin join = new ParquetPartJoin(
                table.schema(), spec.keyColumns().primaryKey(), spec.identifierColumn(), context.identifiers());
        ExportedFile file = new ExportedFile(bucket.s3(), bucket.bucket(), part);
        return withCandidates(runId, unit, candidates -> {
            JoinResult result = join.joinRanged(file, candidates);
            return new UnitOutcome(unit.partIndex(), result.rowsScanned(), result.candidates());
        });
    }

    /** A unit's work that writes its candidates. */
    private interface CandidateJoin {
        UnitOutcome join(CandidateFileWriter candidates) throws IOException;
    }

    /** Runs {@code join} into the unit's candidate file, stored once it returns and aborted if it throws. */
    private UnitOutcome withCandidates(String runId, AuditUnit unit, CandidateJoin join) throws IOException {
        MultipartUploadStream upload = new MultipartUploadStream(
                bucket.s3(), bucket.bucket(), S3Layout.candidatesPartKey(RunId.of(runId), unit.partIndex()));
        try {
            CandidateFileWriter candidates = new CandidateFileWriter(upload);
            UnitOutcome outcome = join.join(candidates);
            candidates.close();
            return outcome;
        } catch (IOException | RuntimeException | Error e) {
            upload.abort();
            throw e;
        }
    }

    /** A token range of a Cassandra backup: every node's SSTables of the table, merged for the range. */
    private UnitOutcome joinCluster(
            String runId, AuditUnit unit, RunContexts.RunContext context, ClusterBackup backup, BackupLocation location)
            throws IOException {
        AuditPlan plan = context.plan();
        if (unit.partIndex() >= plan.partCount()
                || !unit.partKey().equals(plan.partKeys().get(unit.partIndex()))) {
            throw new AuditFailure("unit " + unit.partIndex() + " names " + unit.partKey() + ", which is not unit "
                    + unit.partIndex() + " of the audit of " + backup.describe());
        }
        return withCandidates(runId, unit, candidates -> {
            // as of the plan, so a redone unit finds the same rows whatever their TTLs
            ScanResult result = clusterBackups.join(
                    backup, location, unit.spec(), unit.partKey(), context.identifiers(), plan.plannedAt(), candidates);
            if (result.staticOnlyPartitions() > 0) {
                log.warn(
                        "run {} unit {}: {} partitions of deletable identifiers hold only static columns; no primary"
                                + " key names them, so they are not candidates",
                        runId,
                        unit.partIndex(),
                        result.staticOnlyPartitions());
            }
            return new UnitOutcome(
                    unit.partIndex(), result.rowsScanned(), result.candidates(), result.deletedNotPurged());
        });
    }

    private void completeIfLast(EventEnvelope envelope, AuditPlan plan) {
        String runId = plan.runId();
        if (progress.finishedUnitCount(runId) < plan.partCount()
                || progress.completed(runId)
                || progress.stopped(runId).isPresent()) {
            return;
        }
        UnitOutcome totals = UnitOutcome.sum(progress.finishedUnits(runId));
        // sent before the marker: a crash in between resends the same event id, never loses it
        events.completed(envelope, plan, envelope.payloadAs(AuditUnit.class).spec(), totals);
        progress.markCompleted(runId, totals);
        log.info(
                "audit of run {} completed: {} rows scanned, {} candidates, {} deleted but not yet purged",
                runId,
                totals.rowsScanned(),
                totals.candidates(),
                totals.deletedNotPurged());
    }
}
