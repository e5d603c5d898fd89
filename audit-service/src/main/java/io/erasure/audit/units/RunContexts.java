package io.erasure.audit.units;

import io.erasure.audit.cassandra.ClusterBackup;
import io.erasure.audit.cassandra.ClusterBackupSource;
import io.erasure.audit.join.IdentifierSetLoader;
import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.dataset.BackupLayout;
import io.erasure.model.dataset.BackupLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a replica needs to run units of an audit, built once per run and shared by its worker
 * threads: the plan, the data manifest and the deletable identifier set (the expensive part: the
 * identifier backup is read in full). Holds at most {@code capacity} runs, evicting the least
 * recently used, because each set may take hundreds of megabytes.
 */
public final class RunContexts {

    private static final Logger log = LoggerFactory.getLogger(RunContexts.class);

    /**
     * One run's context.
     *
     * @param manifest the data manifest of a backup in the platform's layout, else null (an RDS export's table is
     *                 in the plan)
     * @param cluster  the Cassandra backup of a plan whose layout {@link BackupLayout#holdsSSTables}, else null
     */
    public record RunContext(
            AuditPlan plan,
            @Nullable BackupManifest manifest,
            @Nullable ClusterBackup cluster,
            IdentifierSet identifiers) {}

    private final BackupBucket bucket;
    private final AuditProgress progress;
    private final IdentifierSetLoader loader;
    private final ClusterBackupSource clusterBackups;
    private final int capacity;
    private final Map<String, CompletableFuture<RunContext>> contexts = new LinkedHashMap<>(4, 0.75f, true);

    public RunContexts(
            BackupBucket bucket,
            AuditProgress progress,
            IdentifierSetLoader loader,
            ClusterBackupSource clusterBackups,
            int capacity) {
        this.bucket = bucket;
        this.progress = progress;
        this.loader = loader;
        this.clusterBackups = clusterBackups;
        this.capacity = Math.max(1, capacity);
    }

    /** Contexts whose Cassandra backups are read for the SSTable reader on this JVM's runtime-cassandra classpath. */
    public RunContexts(BackupBucket bucket, AuditProgress progress, IdentifierSetLoader loader, int capacity) {
        this(bucket, progress, loader, ClusterBackupSource.onRuntimeClasspath(bucket), capacity);
    }

    /**
     * The context of a run, built by the first caller while the others wait.
     *
     * @throws AuditFailure if the run has no plan or its backups are invalid
     * @throws IOException  if reading the backups failed for another reason (worth a retry)
     */
    public RunContext get(String runId) throws IOException {
        CompletableFuture<RunContext> future;
        boolean build = false;
        synchronized (contexts) {
            future = contexts.get(runId);
            if (future == null) {
                future = new CompletableFuture<>();
                contexts.put(runId, future);
                build = true;
                evict();
            }
        }
        if (build) {
            try {
                future.complete(build(runId));
            } catch (RuntimeException | IOException e) {
                future.completeExceptionally(e);
                synchronized (contexts) {
                    // a later unit retries instead of inheriting a transient failure
                    contexts.remove(runId, future);
                }
            }
        }
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the identifiers of run " + runId, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw (RuntimeException) e.getCause();
        }
    }

    private RunContext build(String runId) throws IOException {
        AuditPlan plan = progress.plan(runId)
                .orElseThrow(() -> new AuditFailure("run " + runId + " has no audit plan at "
                        + AuditProgress.planKey(runId) + "; its AuditRequested was never planned"));
        try {
            BackupLocation location = plan.dataLocation();
            ClusterBackup backup = location != null && plan.layout().holdsSSTables()
                    ? clusterBackups.read(location, plan.snapshot())
                    : null;
            if (backup != null && clusterBackups.cutoffMicros(backup) != plan.cutoffMicros()) {
                // uploaded again under the same name (Medusa's schema.cql, a snapshot's manifest.json): not the files
                // planned
                throw new AuditFailure(backup.describe() + " changed since run " + runId
                        + " was planned: it now starts at " + backup.started() + "; run the audit again");
            }
            // an RDS export's parts are pinned in the plan itself
            BackupManifest manifest =
                    plan.layout() == BackupLayout.PLATFORM ? bucket.readManifest(plan.dataManifestKey()) : null;
            BackupManifest identifierManifest = bucket.readManifest(plan.identifierManifestKey());
            long started = System.nanoTime();
            IdentifierSet identifiers = loader.load(
                    identifierManifest,
                    plan.identifierManifestKey(),
                    plan.sourceIdentifierColumn(),
                    plan.deletableSinceColumn(),
                    plan.identifierKind(),
                    plan.deletableUpToMicros());
            log.info(
                    "run {}: {} deletable identifiers loaded from {} in {} ms ({} bytes per id)",
                    runId,
                    identifiers.size(),
                    plan.identifierManifestKey(),
                    (System.nanoTime() - started) / 1_000_000,
                    String.format("%.1f", identifiers.bytesPerId()));
            return new RunContext(plan, manifest, backup, identifiers);
        } catch (BackupIntegrityException e) {
            throw new AuditFailure(e.getMessage(), e);
        }
    }

    private void evict() {
        Iterator<String> oldest = contexts.keySet().iterator();
        while (contexts.size() > capacity && oldest.hasNext()) {
            oldest.next();
            oldest.remove();
        }
    }
}
