package io.erasure.controlplane.forward;

import io.erasure.controlplane.forward.TargetConfirmation.Confirmation;
import io.erasure.controlplane.registry.ForwardAction;
import io.erasure.controlplane.run.RunEventGate;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.LookupResolution;
import io.erasure.model.event.LookupResolved;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Confirms targets from the batch results of forward tasks (events on {@code erasure.run.events}
 * without a run and with a request id). A target is confirmed when its source batches have reported
 * every key and the copy tasks they published (their {@code copyTasks}) have each reported a batch;
 * a lookup target first needs each lookup's report ({@link LookupResolved}; from a deletion service older than that
 * event, a {@code BatchCompleted} of zeros carrying it), which names the tasks it published and their keys;
 * the request is PURGED once every target that must confirm has. A batch is counted once, whatever
 * the redeliveries and their order: it is added to its target's running totals ({@code sum_*}) in the
 * transaction that records it, so an event costs the same however many batches the request already has. Only a batch
 * result sealed by a key trusted for {@code BATCH_RESULT} counts ({@link RunEventGate}); any other is refused.
 *
 * <p>Which outcome a target's totals come to is {@link TargetConfirmation}'s to decide; this class keeps the totals and
 * writes the outcome.
 */
@Service
public class ForwardProgress {

    private static final String RESOLVED_TASK_EXISTS = """
            SELECT EXISTS (SELECT 1 FROM forward_resolved_tasks
                           WHERE request_id = ? AND dataset = ? AND task_id = ?)""";
    private static final String ADD_LOOKUP = """
            UPDATE forward_targets SET sum_lookups_reported = sum_lookups_reported + 1,
                sum_lookup_keys = sum_lookup_keys + ?, sum_lookup_refusals = sum_lookup_refusals + ?
            WHERE request_id = ? AND dataset = ?""";
    private static final String COPY_TASK_BATCHES = """
            SELECT count(*) FROM forward_batches WHERE request_id = ? AND task_id = ? AND copy_of = ?""";
    private static final String ADD_COPY_BATCH = """
            UPDATE forward_targets SET sum_copy_tasks_reported = sum_copy_tasks_reported + ?,
                sum_copy_still_present = sum_copy_still_present + ?,
                sum_copy_failures = sum_copy_failures + ?
            WHERE request_id = ? AND dataset = ?""";

    private static final Logger log = LoggerFactory.getLogger(ForwardProgress.class);

    // the failure of a batch that a completion may replace
    private static final String REPLACED_FAILURE = """
            SELECT counted, failure, deleted, skipped_newer, already_absent, failed, still_present, copy_tasks
            FROM forward_batches WHERE request_id = ? AND batch_id = ? AND NOT completed""";

    // the texts of a failing target: its lookups' refusals, its own batches' failures, its copies' batches' failures
    private static final String REFUSALS = """
            SELECT string_agg(refusal, '; ' ORDER BY batch_id) FROM forward_batches
            WHERE request_id = ? AND dataset = ? AND completed AND resolved_task_ids IS NOT NULL""";
    private static final String SOURCE_FAILURES = """
            SELECT string_agg(failure, '; ' ORDER BY batch_id) FROM forward_batches
            WHERE request_id = ? AND failure IS NOT NULL AND dataset = ? AND copy_of IS NULL AND counted""";
    private static final String COPY_FAILURES = """
            SELECT string_agg(dataset || ': ' || failure, '; ' ORDER BY batch_id) FROM forward_batches
            WHERE request_id = ? AND failure IS NOT NULL AND copy_of = ?""";

    // a target's outcome, as TargetConfirmation decides it
    private static final String CANNOT_ANONYMISE = """
            UPDATE forward_targets SET outcome = ?, detail = ?, updated_at = ?
            WHERE request_id = ? AND dataset = ?""";
    private static final String LEFT_TO_AUDIT = """
            UPDATE forward_targets SET outcome = ?, detail = ?, blocking = false, confirmed = true, updated_at = ?
            WHERE request_id = ? AND dataset = ?""";
    private static final String COUNTED = """
            UPDATE forward_targets SET outcome = ?, detail = ?, confirmed = ?, reported_keys = ?, deleted = ?,
                skipped_newer = ?, already_absent = ?, still_present = ?, copy_tasks_expected = ?,
                copy_tasks_reported = ?, expected_keys = ?, updated_at = ?
            WHERE request_id = ? AND dataset = ?""";

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final DeletionRequests requests;
    private final ForwardTargets targets;
    private final ForwardMetrics metrics;
    private final Clock clock;
    private final RunEventGate gate;

    public ForwardProgress(
            JdbcTemplate jdbc,
            JsonMapper json,
            DeletionRequests requests,
            ForwardTargets targets,
            ForwardMetrics metrics,
            Clock clock,
            RunEventGate gate) {
        this.gate = gate;
        this.jdbc = jdbc;
        this.json = json;
        this.requests = requests;
        this.targets = targets;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Transactional
    public void apply(EventEnvelope event) {
        if (event.runId() != null) {
            return; // a run's batch: RunProgress counts it
        }
        if (!gate.admit(event)) {
            return; // only deletion-service's sealed batch results confirm a target
        }
        LookupResolved resolved = event.payload() instanceof LookupResolved lookup
                ? lookup
                : event.payload() instanceof BatchCompleted older ? older.asLookupResolved() : null;
        if (resolved != null) {
            // recorded in the ledger of batch results under the lookup's one batch id, which applies it once; it
            // counts no key itself
            record(
                    resolved.requestId(),
                    resolved.batchId(),
                    resolved.taskId(),
                    resolved.dataset(),
                    null,
                    true,
                    null,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    resolved.resolution());
        } else if (event.payload() instanceof BatchCompleted batch && batch.requestId() != null) {
            record(
                    batch.requestId(),
                    batch.batchId(),
                    batch.taskId(),
                    batch.dataset(),
                    batch.copyOf(),
                    true,
                    null,
                    batch.counts().deleted(),
                    batch.counts().skippedNewer(),
                    batch.counts().alreadyAbsent(),
                    batch.counts().failed(),
                    batch.stillPresent(),
                    batch.copyTasks(),
                    null);
        } else if (event.payload() instanceof BatchFailed failed && failed.requestId() != null) {
            if (failed.retryable()) {
                log.info(
                        "request {}: batch {} of {} failed and will be redelivered: {}",
                        failed.requestId(),
                        failed.batchId(),
                        failed.dataset(),
                        failed.reason());
                return;
            }
            record(
                    failed.requestId(),
                    failed.batchId(),
                    failed.taskId(),
                    failed.dataset(),
                    copyOf(failed.dataset()),
                    false,
                    failed.reason(),
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    null);
        }
    }

    private void record(
            String requestId,
            String batchId,
            String taskId,
            String dataset,
            String copyOf,
            boolean completed,
            String failure,
            long deleted,
            long skippedNewer,
            long alreadyAbsent,
            long failedKeys,
            long stillPresent,
            int copyTasks,
            LookupResolution resolution) {
        DeletionRequest request = requests.lock(requestId).orElse(null);
        if (request == null) {
            log.warn("batch {} for unknown forward request {} ignored", batchId, requestId);
            return;
        }
        Instant now = clock.instant();
        // the failure a completion is about to replace, if any: its part of the target's totals goes
        ReplacedFailure previous = jdbc.query(REPLACED_FAILURE, ReplacedFailure::read, requestId, batchId).stream()
                .findFirst()
                .orElse(null);
        // a completion replaces an earlier failure of the same batch (a redelivery that succeeded); nothing else is
        // re-counted
        int changed = jdbc.update(
                """
                        INSERT INTO forward_batches (request_id, batch_id, task_id, dataset, copy_of, completed,
                            failure, deleted, skipped_newer, already_absent, failed, still_present, copy_tasks,
                            resolved_task_ids,
                            resolved_keys, refusal, at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)
                        ON CONFLICT (request_id, batch_id) DO UPDATE SET completed = EXCLUDED.completed,
                            failure = EXCLUDED.failure, deleted = EXCLUDED.deleted,
                            skipped_newer = EXCLUDED.skipped_newer,
                            already_absent = EXCLUDED.already_absent, failed = EXCLUDED.failed,
                            still_present = EXCLUDED.still_present, copy_tasks = EXCLUDED.copy_tasks,
                            resolved_task_ids = EXCLUDED.resolved_task_ids, resolved_keys = EXCLUDED.resolved_keys,
                            refusal = EXCLUDED.refusal, at = EXCLUDED.at
                        WHERE NOT forward_batches.completed AND EXCLUDED.completed""",
                requestId,
                batchId,
                taskId,
                dataset,
                copyOf,
                completed,
                failure,
                deleted,
                skippedNewer,
                alreadyAbsent,
                failedKeys,
                stillPresent,
                copyTasks,
                resolution == null ? null : json.writeValueAsString(resolution.taskIds()),
                resolution == null ? null : resolution.keys(),
                resolution == null ? null : resolution.refusal(),
                Timestamp.from(now));
        if (changed == 0) {
            metrics.batchRedelivered();
            return;
        }
        String target = copyOf == null ? dataset : copyOf;
        TargetLock row = jdbc
                .query(
                        """
                        SELECT lookup, task_ids @> to_jsonb(?::text) AS own_task FROM forward_targets
                        WHERE request_id = ? AND dataset = ? FOR UPDATE""",
                        (rs, i) -> new TargetLock(rs.getBoolean("lookup"), rs.getBoolean("own_task")),
                        taskId,
                        requestId,
                        target)
                .stream()
                .findFirst()
                .orElse(null);
        if (row != null) {
            Batch batch = new Batch(
                    requestId,
                    batchId,
                    taskId,
                    target,
                    failure,
                    deleted,
                    skippedNewer,
                    alreadyAbsent,
                    failedKeys,
                    stillPresent,
                    copyTasks);
            if (copyOf == null) {
                addSourceBatch(batch, row.lookup(), row.ownTask(), previous, completed ? resolution : null);
            } else {
                addCopyBatch(batch, previous);
            }
            confirm(requestId, target, now);
        }
        if (request.state() == RequestState.TOMBSTONED
                && targets.allConfirmed(requestId)
                && requests.move(requestId, RequestState.TOMBSTONED, RequestState.PURGED, now)) {
            log.info("request {} PURGED: every target confirmed", requestId);
            // from when its tasks went out: a held request's wait for approval is not the pipeline's time
            metrics.purged(Duration.between(request.publishedAt() == null ? now : request.publishedAt(), now));
        }
    }

    /** One batch result as recorded, for the running totals of its target ({@code target}: the source dataset). */
    private record Batch(
            String requestId,
            String batchId,
            String taskId,
            String target,
            String failure,
            long deleted,
            long skippedNewer,
            long alreadyAbsent,
            long failedKeys,
            long stillPresent,
            int copyTasks) {}

    /** The target a batch counts for, locked for the rest of the transaction; whether it published the batch's task. */
    private record TargetLock(boolean lookup, boolean ownTask) {}

    /**
     * A batch's failure as recorded, which its completion (a redelivery that succeeded) replaces: what it added to its
     * target's totals, if it was counted, is taken off again.
     */
    private record ReplacedFailure(
            boolean counted,
            String failure,
            long deleted,
            long skippedNewer,
            long alreadyAbsent,
            long failed,
            long stillPresent,
            long copyTasks) {

        static ReplacedFailure read(ResultSet rs, int row) throws SQLException {
            return new ReplacedFailure(
                    rs.getBoolean("counted"),
                    rs.getString("failure"),
                    rs.getLong("deleted"),
                    rs.getLong("skipped_newer"),
                    rs.getLong("already_absent"),
                    rs.getLong("failed"),
                    rs.getLong("still_present"),
                    rs.getLong("copy_tasks"));
        }

        /** The keys it reported, whatever became of each. */
        long reported() {
            return deleted + skippedNewer + alreadyAbsent + failed;
        }

        /** 1 for a failure (always, unless recorded without its reason), else 0: what it added to the failures. */
        int failures() {
            return failure == null ? 0 : 1;
        }
    }

    /**
     * Adds a source batch to its target's totals. A lookup target counts only the batches of its lookup tasks and of
     * the tasks its lookups reported (a lookup redelivered after a crash may have published others): a batch that
     * reports before the lookup that published its task is counted when that lookup reports.
     */
    private void addSourceBatch(
            Batch batch, boolean lookup, boolean ownTask, ReplacedFailure previous, LookupResolution resolution) {
        boolean accepted = !lookup
                || ownTask
                || jdbc.queryForObject(
                        RESOLVED_TASK_EXISTS, Boolean.class, batch.requestId(), batch.target(), batch.taskId());
        if (previous != null && previous.counted()) {
            jdbc.update(
                    """
                            UPDATE forward_targets SET sum_reported = sum_reported - ?, sum_deleted = sum_deleted - ?,
                                sum_skipped_newer = sum_skipped_newer - ?, sum_already_absent = sum_already_absent - ?,
                                sum_failed_keys = sum_failed_keys - ?, sum_still_present = sum_still_present - ?,
                                sum_copy_tasks = sum_copy_tasks - ?, sum_failures = sum_failures - ?
                            WHERE request_id = ? AND dataset = ?""",
                    previous.reported(),
                    previous.deleted(),
                    previous.skippedNewer(),
                    previous.alreadyAbsent(),
                    previous.failed(),
                    previous.stillPresent(),
                    previous.copyTasks(),
                    previous.failures(),
                    batch.requestId(),
                    batch.target());
        }
        if (accepted) {
            jdbc.update(
                    """
                            UPDATE forward_targets SET sum_reported = sum_reported + ?, sum_deleted = sum_deleted + ?,
                                sum_skipped_newer = sum_skipped_newer + ?, sum_already_absent = sum_already_absent + ?,
                                sum_failed_keys = sum_failed_keys + ?, sum_still_present = sum_still_present + ?,
                                sum_copy_tasks = sum_copy_tasks + ?, sum_failures = sum_failures + ?
                            WHERE request_id = ? AND dataset = ?""",
                    batch.deleted() + batch.skippedNewer() + batch.alreadyAbsent() + batch.failedKeys(),
                    batch.deleted(),
                    batch.skippedNewer(),
                    batch.alreadyAbsent(),
                    batch.failedKeys(),
                    batch.stillPresent(),
                    batch.copyTasks(),
                    batch.failure() == null ? 0 : 1,
                    batch.requestId(),
                    batch.target());
            jdbc.update(
                    "UPDATE forward_batches SET counted = true WHERE request_id = ? AND batch_id = ?",
                    batch.requestId(),
                    batch.batchId());
        }
        if (resolution == null) {
            return;
        }
        if (!(lookup && ownTask)) {
            // only a lookup the target published may say how many keys it waits for
            log.warn(
                    "request {}: resolution of task {} ignored: it is not one of target {}'s lookups",
                    batch.requestId(),
                    batch.taskId(),
                    batch.target());
            return;
        }
        jdbc.update(ADD_LOOKUP, resolution.keys(), resolution.refused() ? 1 : 0, batch.requestId(), batch.target());
        for (String resolved : resolution.taskIds()) {
            jdbc.update("""
                            INSERT INTO forward_resolved_tasks (request_id, dataset, task_id) VALUES (?, ?, ?)
                            ON CONFLICT DO NOTHING""", batch.requestId(), batch.target(), resolved);
        }
        if (lookup && !resolution.taskIds().isEmpty()) {
            // the batches of these tasks that reported before this lookup did
            jdbc.update(
                    """
                            WITH now_counted AS (
                                UPDATE forward_batches SET counted = true
                                WHERE request_id = ? AND dataset = ? AND copy_of IS NULL AND NOT counted
                                    AND task_id = ANY (?)
                                RETURNING deleted, skipped_newer, already_absent, failed, still_present, copy_tasks,
                                    failure)
                            UPDATE forward_targets t SET
                                sum_reported = t.sum_reported + s.reported, sum_deleted = t.sum_deleted + s.deleted,
                                sum_skipped_newer = t.sum_skipped_newer + s.skipped_newer,
                                sum_already_absent = t.sum_already_absent + s.already_absent,
                                sum_failed_keys = t.sum_failed_keys + s.failed,
                                sum_still_present = t.sum_still_present + s.still_present,
                                sum_copy_tasks = t.sum_copy_tasks + s.copy_tasks,
                                sum_failures = t.sum_failures + s.failures
                            FROM (SELECT coalesce(sum(deleted + skipped_newer + already_absent + failed), 0)
                                             AS reported,
                                         coalesce(sum(deleted), 0) AS deleted,
                                         coalesce(sum(skipped_newer), 0) AS skipped_newer,
                                         coalesce(sum(already_absent), 0) AS already_absent,
                                         coalesce(sum(failed), 0) AS failed,
                                         coalesce(sum(still_present), 0) AS still_present,
                                         coalesce(sum(copy_tasks), 0) AS copy_tasks, count(failure) AS failures
                                  FROM now_counted) s
                            WHERE t.request_id = ? AND t.dataset = ?""",
                    batch.requestId(),
                    batch.target(),
                    resolution.taskIds().toArray(String[]::new),
                    batch.requestId(),
                    batch.target());
        }
    }

    /** Adds a copy's batch to its source target's totals; a copy task counts once, however many batches it has. */
    private void addCopyBatch(Batch batch, ReplacedFailure previous) {
        boolean newTask = previous == null
                && jdbc.queryForObject(COPY_TASK_BATCHES, Long.class, batch.requestId(), batch.taskId(), batch.target())
                        == 1;
        long stillPresent = batch.stillPresent() - (previous == null ? 0 : previous.stillPresent());
        long failures = (batch.failure() == null ? 0 : 1) - (previous == null ? 0 : previous.failures());
        jdbc.update(ADD_COPY_BATCH, newTask ? 1 : 0, stillPresent, failures, batch.requestId(), batch.target());
    }

    /**
     * Works out one target's outcome from its running totals ({@link TargetConfirmation}); the failure and refusal
     * texts, which only failing targets have, are read from their batches.
     */
    private void confirm(String requestId, String dataset, Instant now) {
        TargetConfirmation.Totals target = jdbc
                .query(
                        "SELECT * FROM forward_targets WHERE request_id = ? AND dataset = ?",
                        ForwardProgress::totals,
                        requestId,
                        dataset)
                .stream()
                .findFirst()
                .orElse(null);
        if (target == null) {
            return;
        }
        Confirmation confirmation = TargetConfirmation.of(
                target,
                () -> jdbc.queryForObject(REFUSALS, String.class, requestId, dataset),
                () -> jdbc.queryForObject(SOURCE_FAILURES, String.class, requestId, dataset),
                () -> jdbc.queryForObject(COPY_FAILURES, String.class, requestId, dataset));
        if (confirmation instanceof Confirmation.CannotAnonymise failed) {
            jdbc.update(
                    CANNOT_ANONYMISE,
                    TargetOutcome.FAILED.name(),
                    failed.detail(),
                    Timestamp.from(now),
                    requestId,
                    dataset);
        } else if (confirmation instanceof Confirmation.LeftToAudit left) {
            jdbc.update(
                    LEFT_TO_AUDIT,
                    TargetOutcome.LEFT_TO_AUDIT.name(),
                    left.detail(),
                    Timestamp.from(now),
                    requestId,
                    dataset);
        } else if (confirmation instanceof Confirmation.Counted counted) {
            jdbc.update(
                    COUNTED,
                    counted.outcome().name(),
                    counted.detail(),
                    counted.confirmed(),
                    counted.reported(),
                    counted.deleted(),
                    counted.skippedNewer(),
                    counted.alreadyAbsent(),
                    counted.stillPresent(),
                    counted.copyTasksExpected(),
                    counted.copyTasksReported(),
                    counted.expectedKeys(),
                    Timestamp.from(now),
                    requestId,
                    dataset);
        }
        // NotDeleting: not a target this request deletes from
    }

    /** A target's running totals, for {@link TargetConfirmation}. */
    private static TargetConfirmation.Totals totals(ResultSet rs, int row) throws SQLException {
        return new TargetConfirmation.Totals(
                TargetOutcome.valueOf(rs.getString("outcome")),
                ForwardAction.ANONYMISE.name().equals(rs.getString("action")),
                rs.getBoolean("lookup"),
                rs.getLong("lookup_tasks"),
                rs.getLong("expected_keys"),
                rs.getLong("sum_lookups_reported"),
                rs.getLong("sum_lookup_keys"),
                rs.getLong("sum_lookup_refusals"),
                rs.getLong("sum_reported"),
                rs.getLong("sum_deleted"),
                rs.getLong("sum_skipped_newer"),
                rs.getLong("sum_already_absent"),
                rs.getLong("sum_failed_keys"),
                rs.getLong("sum_still_present"),
                rs.getLong("sum_copy_tasks"),
                rs.getLong("sum_copy_tasks_reported"),
                rs.getLong("sum_copy_still_present"),
                rs.getLong("sum_failures"),
                rs.getLong("sum_copy_failures"));
    }

    /** The source dataset of a copy's view name ({@code source--copy}), or null for a dataset itself. */
    private static String copyOf(String dataset) {
        int separator = dataset.indexOf(DatasetCopy.VIEW_SEPARATOR);
        return separator < 0 ? null : dataset.substring(0, separator);
    }
}
