package io.erasure.controlplane.forward;

import io.erasure.controlplane.registry.ForwardAction;
import io.erasure.controlplane.run.RunEventGate;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.LookupResolution;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
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
 * a lookup target first needs each lookup's report, which names the tasks it published and their keys;
 * the request is PURGED once every target that must confirm has. A batch is counted once, whatever
 * the redeliveries and their order: it is added to its target's running totals ({@code sum_*}) in the
 * transaction that records it, so an event costs the same however many batches the request already has. Only a batch
 * result sealed by a key trusted for {@code BATCH_RESULT} counts ({@link RunEventGate}); any other is refused.
 */
@Service
public class ForwardProgress {

    private static final Logger log = LoggerFactory.getLogger(ForwardProgress.class);

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
        if (event.payload() instanceof BatchCompleted batch && batch.requestId() != null) {
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
                    batch.resolution());
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
        Map<String, Object> previous =
                jdbc.queryForList("""
                        SELECT counted, failure, deleted, skipped_newer, already_absent, failed, still_present, copy_tasks
                        FROM forward_batches WHERE request_id = ? AND batch_id = ? AND NOT completed""", requestId, batchId).stream().findFirst().orElse(null);
        // a completion replaces an earlier failure of the same batch (a redelivery that succeeded); nothing else is
        // re-counted
        int changed = jdbc.update(
                """
                        INSERT INTO forward_batches (request_id, batch_id, task_id, dataset, copy_of, completed, failure, deleted,
                            skipped_newer, already_absent, failed, still_present, copy_tasks, resolved_task_ids,
                            resolved_keys, refusal, at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)
                        ON CONFLICT (request_id, batch_id) DO UPDATE SET completed = EXCLUDED.completed,
                            failure = EXCLUDED.failure, deleted = EXCLUDED.deleted, skipped_newer = EXCLUDED.skipped_newer,
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
        Map<String, Object> row = jdbc.queryForList("""
                        SELECT lookup, task_ids @> to_jsonb(?::text) AS own_task FROM forward_targets
                        WHERE request_id = ? AND dataset = ? FOR UPDATE""", taskId, requestId, target).stream()
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
                addSourceBatch(
                        batch,
                        (Boolean) row.get("lookup"),
                        (Boolean) row.get("own_task"),
                        previous,
                        completed ? resolution : null);
            } else {
                addCopyBatch(batch, previous);
            }
            confirm(requestId, target, now);
        }
        if (request.state() == RequestState.TOMBSTONED
                && targets.allConfirmed(requestId)
                && requests.move(requestId, RequestState.TOMBSTONED, RequestState.PURGED, now)) {
            log.info("request {} PURGED: every target confirmed", requestId);
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

    /**
     * Adds a source batch to its target's totals. A lookup target counts only the batches of its lookup tasks and of
     * the tasks its lookups reported (a lookup redelivered after a crash may have published others): a batch that
     * reports before the lookup that published its task is counted when that lookup reports.
     */
    private void addSourceBatch(
            Batch batch, boolean lookup, boolean ownTask, Map<String, Object> previous, LookupResolution resolution) {
        boolean accepted = !lookup
                || ownTask
                || jdbc.queryForObject("""
                        SELECT EXISTS (SELECT 1 FROM forward_resolved_tasks WHERE request_id = ? AND dataset = ? AND task_id = ?)""", Boolean.class, batch.requestId(), batch.target(), batch.taskId());
        if (previous != null && (Boolean) previous.get("counted")) {
            jdbc.update(
                    """
                            UPDATE forward_targets SET sum_reported = sum_reported - ?, sum_deleted = sum_deleted - ?,
                                sum_skipped_newer = sum_skipped_newer - ?, sum_already_absent = sum_already_absent - ?,
                                sum_failed_keys = sum_failed_keys - ?, sum_still_present = sum_still_present - ?,
                                sum_copy_tasks = sum_copy_tasks - ?, sum_failures = sum_failures - ?
                            WHERE request_id = ? AND dataset = ?""",
                    number(previous, "deleted")
                            + number(previous, "skipped_newer")
                            + number(previous, "already_absent")
                            + number(previous, "failed"),
                    number(previous, "deleted"),
                    number(previous, "skipped_newer"),
                    number(previous, "already_absent"),
                    number(previous, "failed"),
                    number(previous, "still_present"),
                    number(previous, "copy_tasks"),
                    previous.get("failure") == null ? 0 : 1,
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
        jdbc.update("""
                        UPDATE forward_targets SET sum_lookups_reported = sum_lookups_reported + 1,
                            sum_lookup_keys = sum_lookup_keys + ?, sum_lookup_refusals = sum_lookup_refusals + ?
                        WHERE request_id = ? AND dataset = ?""", resolution.keys(), resolution.refused() ? 1 : 0, batch.requestId(), batch.target());
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
                                WHERE request_id = ? AND dataset = ? AND copy_of IS NULL AND NOT counted AND task_id = ANY (?)
                                RETURNING deleted, skipped_newer, already_absent, failed, still_present, copy_tasks, failure)
                            UPDATE forward_targets t SET
                                sum_reported = t.sum_reported + s.reported, sum_deleted = t.sum_deleted + s.deleted,
                                sum_skipped_newer = t.sum_skipped_newer + s.skipped_newer,
                                sum_already_absent = t.sum_already_absent + s.already_absent,
                                sum_failed_keys = t.sum_failed_keys + s.failed, sum_still_present = t.sum_still_present + s.still_present,
                                sum_copy_tasks = t.sum_copy_tasks + s.copy_tasks, sum_failures = t.sum_failures + s.failures
                            FROM (SELECT coalesce(sum(deleted + skipped_newer + already_absent + failed), 0) AS reported,
                                         coalesce(sum(deleted), 0) AS deleted, coalesce(sum(skipped_newer), 0) AS skipped_newer,
                                         coalesce(sum(already_absent), 0) AS already_absent, coalesce(sum(failed), 0) AS failed,
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
    private void addCopyBatch(Batch batch, Map<String, Object> previous) {
        boolean newTask = previous == null
                && jdbc.queryForObject("""
                        SELECT count(*) FROM forward_batches WHERE request_id = ? AND task_id = ? AND copy_of = ?""", Long.class, batch.requestId(), batch.taskId(), batch.target()) == 1;
        long stillPresent = batch.stillPresent() - (previous == null ? 0 : number(previous, "still_present"));
        long failures =
                (batch.failure() == null ? 0 : 1) - (previous == null || previous.get("failure") == null ? 0 : 1);
        jdbc.update("""
                        UPDATE forward_targets SET sum_copy_tasks_reported = sum_copy_tasks_reported + ?,
                            sum_copy_still_present = sum_copy_still_present + ?, sum_copy_failures = sum_copy_failures + ?
                        WHERE request_id = ? AND dataset = ?""", newTask ? 1 : 0, stillPresent, failures, batch.requestId(), batch.target());
    }

    /**
     * Works out one target's outcome from its running totals; the failure and refusal texts, which only failing
     * targets have, are read from their batches.
     */
    private void confirm(String requestId, String dataset, Instant now) {
        Map<String, Object> target = jdbc
                .queryForList("SELECT * FROM forward_targets WHERE request_id = ? AND dataset = ?", requestId, dataset)
                .stream()
                .findFirst()
                .orElse(null);
        if (target == null
                || !TargetOutcome.PENDING.name().equals(target.get("outcome"))
                        && !TargetOutcome.ROWS_REMAINING.name().equals(target.get("outcome"))
                        && !TargetOutcome.FAILED.name().equals(target.get("outcome"))) {
            return; // not a target this request deletes from
        }
        boolean lookup = (Boolean) target.get("lookup");
        if (lookup && number(target, "sum_lookup_refusals") > 0) {
            String refusals = jdbc.queryForObject("""
                            SELECT string_agg(refusal, '; ' ORDER BY batch_id) FROM forward_batches
                            WHERE request_id = ? AND dataset = ? AND completed AND resolved_task_ids IS NOT NULL""", String.class, requestId, dataset);
            if (ForwardAction.ANONYMISE.name().equals(target.get("action"))) {
                // runs do not anonymise (they are refused on such a dataset): nobody else will, so the request stays
                // open
                jdbc.update(
                        """
                                UPDATE forward_targets SET outcome = ?, detail = ?, updated_at = ?
                                WHERE request_id = ? AND dataset = ?""",
                        TargetOutcome.FAILED.name(),
                        "cannot be anonymised: " + refusals,
                        Timestamp.from(now),
                        requestId,
                        dataset);
                return;
            }
            // the store cannot search the column: the nightly audit covers this dataset, as for any unaddressable one
            jdbc.update(
                    """
                            UPDATE forward_targets SET outcome = ?, detail = ?, blocking = false, confirmed = true, updated_at = ?
                            WHERE request_id = ? AND dataset = ?""",
                    TargetOutcome.LEFT_TO_AUDIT.name(),
                    ForwardTargets.NOT_INDEXED + refusals,
                    Timestamp.from(now),
                    requestId,
                    dataset);
            return;
        }
        String sourceFailures =
                number(target, "sum_failures") == 0 ? null : jdbc.queryForObject("""
                        SELECT string_agg(failure, '; ' ORDER BY batch_id) FROM forward_batches
                        WHERE request_id = ? AND failure IS NOT NULL AND dataset = ? AND copy_of IS NULL AND counted""", String.class, requestId, dataset);
        String copyFailures = number(target, "sum_copy_failures") == 0
                ? null
                : jdbc.queryForObject("""
                        SELECT string_agg(dataset || ': ' || failure, '; ' ORDER BY batch_id) FROM forward_batches
                        WHERE request_id = ? AND failure IS NOT NULL AND copy_of = ?""", String.class, requestId, dataset);
        long expected = lookup ? number(target, "sum_lookup_keys") : number(target, "expected_keys");
        long reported = number(target, "sum_reported");
        long copyTasksExpected = number(target, "sum_copy_tasks");
        long copyTasksReported = number(target, "sum_copy_tasks_reported");
        long stillPresent = number(target, "sum_still_present") + number(target, "sum_copy_still_present");
        long failedKeys = number(target, "sum_failed_keys");
        String failures = join(sourceFailures, copyFailures);
        boolean resolved = !lookup || number(target, "sum_lookups_reported") >= number(target, "lookup_tasks");
        boolean complete = resolved && reported >= expected && copyTasksReported >= copyTasksExpected;
        TargetOutcome outcome;
        String detail = null;
        if (failures != null || failedKeys > 0) {
            outcome = TargetOutcome.FAILED;
            detail = failures != null ? failures : failedKeys + " keys failed";
        } else if (!complete) {
            outcome = TargetOutcome.PENDING;
        } else if (stillPresent > 0) {
            outcome = TargetOutcome.ROWS_REMAINING;
            detail = stillPresent + " rows still present at read-back";
        } else {
            outcome = ForwardAction.ANONYMISE.name().equals(target.get("action"))
                    ? TargetOutcome.ANONYMISED
                    : TargetOutcome.DELETED;
        }
        boolean confirmed = outcome == TargetOutcome.DELETED || outcome == TargetOutcome.ANONYMISED;
        jdbc.update(
                """
                        UPDATE forward_targets SET outcome = ?, detail = ?, confirmed = ?, reported_keys = ?, deleted = ?,
                            skipped_newer = ?, already_absent = ?, still_present = ?, copy_tasks_expected = ?,
                            copy_tasks_reported = ?, expected_keys = ?, updated_at = ?
                        WHERE request_id = ? AND dataset = ?""",
                outcome.name(),
                detail,
                confirmed,
                reported,
                number(target, "sum_deleted"),
                number(target, "sum_skipped_newer"),
                number(target, "sum_already_absent"),
                stillPresent,
                copyTasksExpected,
                copyTasksReported,
                expected,
                Timestamp.from(now),
                requestId,
                dataset);
    }

    /** The source dataset of a copy's view name ({@code source--copy}), or null for a dataset itself. */
    private static String copyOf(String dataset) {
        int separator = dataset.indexOf(DatasetCopy.VIEW_SEPARATOR);
        return separator < 0 ? null : dataset.substring(0, separator);
    }

    private static long number(Map<String, Object> row, String column) {
        Object value = row.get(column);
        return value == null ? 0 : ((Number) value).longValue();
    }

    private static String join(String a, String b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a + "; " + b;
    }
}
