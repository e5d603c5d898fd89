package io.erasure.controlplane.forward;

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
 * the redeliveries and their order.
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

    public ForwardProgress(JdbcTemplate jdbc, JsonMapper json, DeletionRequests requests, ForwardTargets targets,
                           ForwardMetrics metrics, Clock clock) {
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
        if (event.payload() instanceof BatchCompleted batch && batch.requestId() != null) {
            record(batch.requestId(), batch.batchId(), batch.taskId(), batch.dataset(), batch.copyOf(), true, null,
                    batch.counts().deleted(), batch.counts().skippedNewer(), batch.counts().alreadyAbsent(),
                    batch.counts().failed(), batch.stillPresent(), batch.copyTasks(), batch.resolution());
        } else if (event.payload() instanceof BatchFailed failed && failed.requestId() != null) {
            if (failed.retryable()) {
                log.info("request {}: batch {} of {} failed and will be redelivered: {}", failed.requestId(),
                        failed.batchId(), failed.dataset(), failed.reason());
                return;
            }
            record(failed.requestId(), failed.batchId(), failed.taskId(), failed.dataset(), copyOf(failed.dataset()), false,
                    failed.reason(), 0, 0, 0, 0, 0, 0, null);
        }
    }

    private void record(String requestId, String batchId, String taskId, String dataset, String copyOf, boolean completed,
                        String failure, long deleted, long skippedNewer, long alreadyAbsent, long failedKeys,
                        long stillPresent, int copyTasks, LookupResolution resolution) {
        DeletionRequest request = requests.lock(requestId).orElse(null);
        if (request == null) {
            log.warn("batch {} for unknown forward request {} ignored", batchId, requestId);
            return;
        }
        Instant now = clock.instant();
        // a completion replaces an earlier failure of the same batch (a redelivery that succeeded); nothing else is re-counted
        int changed = jdbc.update("""
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
                requestId, batchId, taskId, dataset, copyOf, completed, failure, deleted, skippedNewer, alreadyAbsent,
                failedKeys, stillPresent, copyTasks, resolution == null ? null : json.writeValueAsString(resolution.taskIds()),
                resolution == null ? null : resolution.keys(), resolution == null ? null : resolution.refusal(),
                Timestamp.from(now));
        if (changed == 0) {
            metrics.batchRedelivered();
            return;
        }
        confirm(requestId, copyOf == null ? dataset : copyOf, now);
        if (request.state() == RequestState.TOMBSTONED && targets.allConfirmed(requestId)
                && requests.move(requestId, RequestState.TOMBSTONED, RequestState.PURGED, now)) {
            log.info("request {} PURGED: every target confirmed", requestId);
        }
    }

    /**
     * Recomputes one target from its batches. A lookup target counts only the batches of the tasks its lookups
     * reported (a lookup redelivered after a crash may have published others), and expects the keys they found.
     */
    private void confirm(String requestId, String dataset, Instant now) {
        Map<String, Object> target = jdbc.queryForList("""
                        SELECT expected_keys, outcome, action, lookup, lookup_tasks FROM forward_targets
                        WHERE request_id = ? AND dataset = ? FOR UPDATE""",
                requestId, dataset).stream().findFirst().orElse(null);
        if (target == null || !TargetOutcome.PENDING.name().equals(target.get("outcome"))
                && !TargetOutcome.ROWS_REMAINING.name().equals(target.get("outcome"))
                && !TargetOutcome.FAILED.name().equals(target.get("outcome"))) {
            return; // not a target this request deletes from
        }
        boolean lookup = (Boolean) target.get("lookup");
        Map<String, Object> lookups = jdbc.queryForMap("""
                SELECT count(*) AS reported, coalesce(sum(resolved_keys), 0) AS keys,
                       string_agg(refusal, '; ' ORDER BY batch_id) AS refusals
                FROM forward_batches WHERE request_id = ? AND dataset = ? AND completed AND resolved_task_ids IS NOT NULL""",
                requestId, dataset);
        if (lookup && lookups.get("refusals") != null) {
            if (ForwardAction.ANONYMISE.name().equals(target.get("action"))) {
                // runs do not anonymise (they are refused on such a dataset): nobody else will, so the request stays open
                jdbc.update("""
                                UPDATE forward_targets SET outcome = ?, detail = ?, updated_at = ?
                                WHERE request_id = ? AND dataset = ?""",
                        TargetOutcome.FAILED.name(), "cannot be anonymised: " + lookups.get("refusals"),
                        Timestamp.from(now), requestId, dataset);
                return;
            }
            // the store cannot search the column: the nightly audit covers this dataset, as for any unaddressable one
            jdbc.update("""
                            UPDATE forward_targets SET outcome = ?, detail = ?, blocking = false, confirmed = true, updated_at = ?
                            WHERE request_id = ? AND dataset = ?""",
                    TargetOutcome.LEFT_TO_AUDIT.name(), ForwardTargets.NOT_INDEXED + lookups.get("refusals"),
                    Timestamp.from(now), requestId, dataset);
            return;
        }
        Map<String, Object> source = jdbc.queryForMap("""
                SELECT coalesce(sum(deleted + skipped_newer + already_absent + failed), 0) AS reported,
                       coalesce(sum(deleted), 0) AS deleted, coalesce(sum(skipped_newer), 0) AS skipped_newer,
                       coalesce(sum(already_absent), 0) AS already_absent, coalesce(sum(failed), 0) AS failed_keys,
                       coalesce(sum(still_present), 0) AS still_present, coalesce(sum(copy_tasks), 0) AS copy_tasks,
                       string_agg(failure, '; ' ORDER BY batch_id) AS failures
                FROM forward_batches b WHERE request_id = ? AND dataset = ? AND copy_of IS NULL
                  AND (NOT ? OR task_id IN (
                      SELECT jsonb_array_elements_text(t.task_ids) FROM forward_targets t
                      WHERE t.request_id = b.request_id AND t.dataset = b.dataset) OR task_id IN (
                      SELECT jsonb_array_elements_text(l.resolved_task_ids) FROM forward_batches l
                      WHERE l.request_id = b.request_id AND l.dataset = b.dataset AND l.resolved_task_ids IS NOT NULL))""",
                requestId, dataset, lookup);
        Map<String, Object> copies = jdbc.queryForMap("""
                SELECT count(DISTINCT task_id) AS reported, coalesce(sum(still_present), 0) AS still_present,
                       string_agg(dataset || ': ' || failure, '; ' ORDER BY batch_id) AS failures
                FROM forward_batches WHERE request_id = ? AND copy_of = ?""", requestId, dataset);
        long expected = lookup ? number(lookups, "keys") : ((Number) target.get("expected_keys")).longValue();
        long reported = number(source, "reported");
        long copyTasksExpected = number(source, "copy_tasks");
        long copyTasksReported = number(copies, "reported");
        long stillPresent = number(source, "still_present") + number(copies, "still_present");
        String failures = join((String) source.get("failures"), (String) copies.get("failures"));
        boolean resolved = !lookup || number(lookups, "reported") >= ((Number) target.get("lookup_tasks")).longValue();
        boolean complete = resolved && reported >= expected && copyTasksReported >= copyTasksExpected;
        TargetOutcome outcome;
        String detail = null;
        if (failures != null || number(source, "failed_keys") > 0) {
            outcome = TargetOutcome.FAILED;
            detail = failures != null ? failures : number(source, "failed_keys") + " keys failed";
        } else if (!complete) {
            outcome = TargetOutcome.PENDING;
        } else if (stillPresent > 0) {
            outcome = TargetOutcome.ROWS_REMAINING;
            detail = stillPresent + " rows still present at read-back";
        } else {
            outcome = ForwardAction.ANONYMISE.name().equals(target.get("action")) ? TargetOutcome.ANONYMISED
                    : TargetOutcome.DELETED;
        }
        boolean confirmed = outcome == TargetOutcome.DELETED || outcome == TargetOutcome.ANONYMISED;
        jdbc.update("""
                        UPDATE forward_targets SET outcome = ?, detail = ?, confirmed = ?, reported_keys = ?, deleted = ?,
                            skipped_newer = ?, already_absent = ?, still_present = ?, copy_tasks_expected = ?,
                            copy_tasks_reported = ?, expected_keys = ?, updated_at = ?
                        WHERE request_id = ? AND dataset = ?""",
                outcome.name(), detail, confirmed, reported, number(source, "deleted"),
                number(source, "skipped_newer"), number(source, "already_absent"), stillPresent, copyTasksExpected,
                copyTasksReported, expected, Timestamp.from(now), requestId, dataset);
    }

    /** The source dataset of a copy's view name ({@code source--copy}), or null for a dataset itself. */
    private static String copyOf(String dataset) {
        int separator = dataset.indexOf(io.erasure.model.dataset.DatasetCopy.VIEW_SEPARATOR);
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
