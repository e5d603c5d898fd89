package io.erasure.validation.job;

import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.event.TasksPublished;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.model.event.ValidationRequested;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.task.SpreadWindow;
import io.erasure.model.trust.FinalSetManifest;
import io.erasure.model.trust.TaskAuthority;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.PlannedStatement;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.tasks.DeletionTaskPublisher;
import io.erasure.support.trust.SpecDigest;
import io.erasure.validation.ValidationProperties;
import io.erasure.validation.check.CandidateChecks;
import io.erasure.validation.check.DropReason;
import io.erasure.validation.finalset.RunFiles;
import io.erasure.validation.finalset.ValidationReport;
import io.erasure.validation.resurrection.ResurrectedRow;
import io.erasure.validation.resurrection.ResurrectionDetector;
import io.erasure.validation.tasks.TaskPlanner;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The validation jobs of a run: check the candidates and write the final set (reporting counts to
 * the control plane, which decides), then, only on {@code DeletionAuthorized}, publish the deletion
 * tasks. A dry-run stops after planning the exact delete statements into the report. The tasks of a run whose spec
 * asks to be spread over a window carry that window, from the moment they are published, and the run's key count,
 * which the deletion service paces the run on.
 *
 * <p>Rows of the final set that the deletion log knows as deleted before (zombies) are reported as
 * resurrected and stay in the final set: this run deletes them again, at its own cut-off.
 */
@Component
public class ValidationJobs {

    private static final Logger log = LoggerFactory.getLogger(ValidationJobs.class);

    private final RunFiles files;
    private final CandidateChecks checks;
    private final StoreAdapterPool stores;
    private final DeletionTaskPublisher publisher;
    private final RunEvents events;
    private final ProcessedJobs processed;
    private final ValidationProperties properties;
    private final Clock clock;
    private final ResurrectionDetector resurrection;

    public ValidationJobs(
            RunFiles files,
            CandidateChecks checks,
            StoreAdapterPool stores,
            DeletionTaskPublisher publisher,
            RunEvents events,
            ProcessedJobs processed,
            ValidationProperties properties,
            Clock clock,
            ResurrectionDetector resurrection) {
        this.files = files;
        this.checks = checks;
        this.stores = stores;
        this.publisher = publisher;
        this.events = events;
        this.processed = processed;
        this.properties = properties;
        this.clock = clock;
        this.resurrection = resurrection;
    }

    /** Checks the run's candidates and reports ValidationCompleted; a redelivered job does nothing. */
    public void validate(String runId, ValidationRequested request) {
        String[] scope = {request.spec().name(), Long.toString(request.cutoff().micros())};
        if (processed.alreadyDone("validate:" + runId, scope)) {
            log.info("validation of run {} was already done; redelivery counted", runId);
            return;
        }
        RunId run = RunId.of(runId);
        ValidationReport report = checkInto(
                run,
                request.spec(),
                request.identifierSource(),
                request.cutoff(),
                files.parts(S3Layout.candidatesPrefix(run)),
                request.totalRows(),
                request.dryRun(),
                false,
                null);
        files.writeJson(S3Layout.reportKey(run), report);
        if (!request.dryRun()) {
            // counted once per run: a dry-run deletes nothing, a re-validation finds the same rows again
            resurrection.count(request.spec().name(), report.resurrectedCount());
        }
        events.send(
                runId,
                new ValidationCompleted(
                        request.spec().name(),
                        report.candidateCount(),
                        report.finalCount(),
                        report.droppedByReason(),
                        S3Layout.finalPrefix(run),
                        report.taskCount(),
                        report.exceedsLimit(),
                        report.resurrectedCount(),
                        report.resurrectedKey(),
                        report.finalSetDigest(),
                        SpecDigest.of(
                                request.spec()))); // the spec validated: the control plane applies it to that run only
        processed.markDone("validate:" + runId, runId, scope);
    }

    /** Publishes the run's deletion tasks; re-validates first if the final set is too old. */
    public void publish(String runId, DeletionAuthorized authorization) {
        String[] scope = {authorization.dataset()};
        if (processed.isRecorded("cancelled:" + runId, scope)) {
            log.warn("run {} was cancelled; its authorization is ignored", runId);
            return;
        }
        if (processed.alreadyDone("publish:" + runId, scope)) {
            log.info("tasks of run {} were already published; redelivery counted", runId);
            return;
        }
        if (authorization.authorization() == null) {
            throw new IllegalStateException(
                    "DeletionAuthorized of run " + runId + " carries no signed authorization, so"
                            + " the deletion service would refuse every task: nothing is published. Upgrade"
                            + " control-plane (it signs with erasure.signing.private-key) and authorize the run again");
        }
        RunId run = RunId.of(runId);
        ValidationReport report = files.readJson(S3Layout.reportKey(run), ValidationReport.class)
                .orElseThrow(() -> new IllegalStateException("run " + runId + " has no validation report at "
                        + S3Layout.reportKey(run) + ": it was never validated, so nothing can be published"));
        if (report.validatedAt().plus(properties.revalidateAfter()).isBefore(clock.instant())) {
            log.info(
                    "final set of run {} is older than {}: re-validating before publishing",
                    runId,
                    properties.revalidateAfter());
            // always from the authorized final set, which stays as signed; what survives goes to revalidated/
            List<String> finalParts = files.parts(S3Layout.finalPrefix(run));
            report = checkInto(
                    run,
                    report.spec(),
                    report.identifierSource(),
                    new CutoffTimestamp(report.cutoffMicros()),
                    finalParts,
                    0,
                    false,
                    true,
                    report.finalSetDigest());
            files.writeJson(S3Layout.reportKey(run), report);
        }
        int taskCount = 0;
        long keyCount = 0;
        int maxKeys = taskSize(report.spec());
        SpreadWindow spread = spreadWindow(report);
        String publishPrefix = report.publishPrefix() == null ? S3Layout.finalPrefix(run) : report.publishPrefix();
        for (String part : files.parts(publishPrefix)) {
            // each task carries the run's signed authorization and the part of the final set its keys are from
            TaskAuthority authority = TaskAuthority.ofRun(authorization.authorization(), S3Layout.parsePartIndex(part));
            List<DeletionTask> tasks = TaskPlanner.plan(
                            run,
                            report.spec(),
                            new CutoffTimestamp(report.cutoffMicros()),
                            files.readPart(part),
                            maxKeys)
                    .stream()
                    .map(task -> task.withAuthority(authority))
                    .toList();
            if (spread != null) {
                tasks = tasks.stream().map(task -> task.withSpread(spread)).toList();
            }
            publisher.publish(tasks);
            taskCount += tasks.size();
            keyCount += tasks.stream().mapToLong(t -> t.keys().size()).sum();
        }
        events.send(runId, new TasksPublished(authorization.dataset(), taskCount, keyCount));
        processed.markDone("publish:" + runId, runId, scope);
    }

    /** The window a run's deletion is spread over, starting now; null when its spec does not ask for one. */
    private SpreadWindow spreadWindow(ValidationReport report) {
        if (report.spec().spreadOver() == null || report.keyCount() <= 0) {
            return null;
        }
        log.info(
                "run {}: {} keys of {} are spread over {}",
                report.runId(),
                report.keyCount(),
                report.spec().name(),
                report.spec().spreadOver());
        return SpreadWindow.of(clock.instant(), report.spec().spreadOver(), report.keyCount());
    }

    public void cancelled(String runId, String dataset) {
        processed.markDone("cancelled:" + runId, runId, dataset);
    }

    /**
     * Checks every candidate of {@code parts} and writes what survives as the run's final set (part
     * for part, replacing any earlier final set) with its manifest, whose digest the control plane signs. {@code
     * totalRows} 0 means "keep the report's limit decision out of it" (a re-validation after authorization). A
     * {@code revalidation} writes under {@code revalidated/} instead and leaves the authorized final set and its
     * manifest as they were signed; its report keeps {@code signedDigest}, the digest the authorization covers.
     */
    private ValidationReport checkInto(
            RunId run,
            DatasetSpec spec,
            IdentifierSource source,
            CutoffTimestamp cutoff,
            List<String> parts,
            long totalRows,
            boolean dryRun,
            boolean revalidation,
            String signedDigest) {
        List<List<Candidate>> finalParts = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        long candidateCount = 0;
        long reads = 0;
        Map<String, Long> dropped = new TreeMap<>();
        List<ResurrectedRow> resurrected = new ArrayList<>();
        for (String part : parts) {
            List<Candidate> candidates = files.readPart(part);
            candidateCount += candidates.size();
            List<Candidate> kept = new ArrayList<>();
            for (int from = 0; from < candidates.size(); from += properties.batchSize()) {
                CandidateChecks.Checked checked = checks.check(
                        spec,
                        source,
                        cutoff,
                        candidates.subList(from, Math.min(candidates.size(), from + properties.batchSize())));
                kept.addAll(checked.kept());
                reads += checked.reads();
                resurrected.addAll(resurrection.detect(run, spec, checked.kept()));
                checked.dropped().forEach((reason, n) -> dropped.merge(reason.key(), n, Long::sum));
            }
            finalParts.add(kept);
            indexes.add(S3Layout.parsePartIndex(part));
        }
        // read everything before replacing: a re-validation reads the final set it rewrites
        String writePrefix = revalidation ? S3Layout.revalidatedPrefix(run) : S3Layout.finalPrefix(run);
        files.deleteParts(writePrefix);
        List<FinalSetManifest.Part> manifestParts = new ArrayList<>();
        long finalCount = 0;
        int taskCount = 0;
        long keyCount = 0;
        long statementCount = 0;
        List<String> statements = new ArrayList<>();
        int maxKeys = taskSize(spec);
        for (int i = 0; i < finalParts.size(); i++) {
            List<Candidate> kept = finalParts.get(i);
            if (kept.isEmpty()) {
                continue;
            }
            files.writePart(
                    revalidation
                            ? S3Layout.revalidatedPartKey(run, indexes.get(i))
                            : S3Layout.finalPartKey(run, indexes.get(i)),
                    kept);
            manifestParts.add(FinalSetManifest.Part.of(
                    indexes.get(i), kept.stream().map(Candidate::key).toList()));
            finalCount += kept.size();
            List<DeletionTask> tasks = TaskPlanner.plan(run, spec, cutoff, kept, maxKeys);
            taskCount += tasks.size();
            keyCount += tasks.stream().mapToLong(t -> t.keys().size()).sum();
            if (dryRun) {
                statementCount += plan(spec, cutoff, tasks, statements);
            }
        }
        for (DropReason reason : DropReason.values()) {
            dropped.putIfAbsent(reason.key(), 0L);
        }
        boolean exceedsLimit = totalRows > 0 && spec.limits().exceededBy(finalCount, totalRows);
        String resurrectedKey = writeResurrected(run, spec, resurrected);
        String finalSetDigest = signedDigest;
        if (!revalidation) {
            FinalSetManifest manifest = new FinalSetManifest(run.value(), spec.name(), manifestParts);
            files.writeJson(S3Layout.finalManifestKey(run), manifest);
            finalSetDigest = manifest.digest();
        }
        return new ValidationReport(
                run.value(),
                spec,
                source,
                clock.instant(),
                cutoff.micros(),
                candidateCount,
                finalCount,
                dropped,
                taskCount,
                keyCount,
                exceedsLimit,
                dryRun,
                statementCount,
                statements,
                resurrection.status(),
                resurrected.size(),
                resurrectedKey,
                reads,
                candidateCount == 0 ? 0 : (double) reads / candidateCount,
                finalSetDigest,
                revalidation ? S3Layout.revalidatedPrefix(run) : null);
    }

    /**
     * Writes the run's list of resurrected rows (replacing an earlier one); returns its key, null when there are none.
     */
    private String writeResurrected(RunId run, DatasetSpec spec, List<ResurrectedRow> resurrected) {
        String key = S3Layout.resurrectedKey(run);
        if (resurrected.isEmpty()) {
            files.delete(key); // a re-validation may no longer find what an earlier pass did
            return null;
        }
        files.writeJsonLines(key, resurrected);
        log.warn(
                "run {}: {} row(s) of {} were deleted before and are live again; they are deleted again and listed at"
                        + " {}",
                run.value(),
                resurrected.size(),
                spec.name(),
                key);
        return key;
    }

    /** Runs the adapter's planner over the tasks (nothing is executed); returns the statement count. */
    private long plan(DatasetSpec spec, CutoffTimestamp cutoff, List<DeletionTask> tasks, List<String> statements) {
        StoreAdapter adapter = stores.checkedAdapter(spec);
        long count = 0;
        for (DeletionTask task : tasks) {
            DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, task.batchId(0), cutoff, task.keys()));
            for (PlannedStatement statement : plan.statements()) {
                count++;
                if (statements.size() < properties.maxPlannedStatements()) {
                    statements.add(statement.describe());
                }
            }
        }
        return count;
    }

    private int taskSize(DatasetSpec spec) {
        return Math.min(
                properties.taskSize(),
                stores.checkedAdapter(spec).capabilities().maxBatch());
    }
}
