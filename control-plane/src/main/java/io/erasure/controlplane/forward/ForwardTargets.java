package io.erasure.controlplane.forward;

import io.erasure.controlplane.outbox.Outbox;
import io.erasure.controlplane.ownership.OwnershipRules;
import io.erasure.controlplane.registry.DatasetRegistry;
import io.erasure.controlplane.registry.DatasetView;
import io.erasure.controlplane.registry.ForwardAction;
import io.erasure.controlplane.registry.ForwardPolicies;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.task.DeletionTask;
import io.erasure.support.trust.TaskSigner;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A request's targets: every registered dataset whose identifier source is the request's aggregate
 * type (or one of its child types). When the identifier is the dataset's whole primary key, each id is a
 * key and a forward task deletes it at once (its copies follow through the deletion service's fan-out).
 * When it is another column of a table, lookup tasks go out instead: the deletion service finds the rows
 * through an index and publishes their tasks, or reports that the column is not searchable, and the target
 * is then left to the nightly audit with the store's reason. Tableless datasets addressed by another column
 * are left to the audit at once. The dataset's policy decides the effect: delete, anonymise (clear its
 * columns) or keep a snapshot.
 *
 * <p>Grants are checked again for every target, as a run checks them at its start: a dataset whose team lost the grant
 * for a place it deletes from gets no task ({@link TargetOutcome#NOT_GRANTED}) until the grant is back.
 *
 * <p>A target row is also the idempotency record of its effect: unique on (event id, dataset, key set),
 * so the same event never publishes the same deletion twice, while another event for the same keys does.
 *
 * <p>What becomes of each target, and the tasks it needs, is {@link TargetPlan}'s to decide; this class records the
 * targets, and puts their signed tasks in the outbox.
 */
@Component
class ForwardTargets {

    private static final Logger log = LoggerFactory.getLogger(ForwardTargets.class);

    // the targets still waiting: published, or held for their grant
    private static final String OPEN_TARGETS = """
            SELECT dataset, keys::text AS keys, lookup, clear_columns::text AS clear, outcome, detail
            FROM forward_targets WHERE request_id = ? AND blocking AND outcome IN ('PENDING', 'NOT_GRANTED')""";
    private static final TypeReference<List<Map<String, Object>>> KEYS = new TypeReference<>() {};
    private static final TypeReference<List<String>> IDS = new TypeReference<>() {};

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final DatasetRegistry datasets;
    private final ForwardPolicies policies;
    private final Outbox outbox;
    private final ForwardMetrics metrics;
    private final TaskSigner signer;
    private final OwnershipRules ownership;
    private final Clock clock;

    ForwardTargets(
            JdbcTemplate jdbc,
            JsonMapper json,
            DatasetRegistry datasets,
            ForwardPolicies policies,
            Outbox outbox,
            ForwardMetrics metrics,
            TaskSigner signer,
            OwnershipRules ownership,
            Clock clock) {
        this.signer = signer;
        this.ownership = ownership;
        this.jdbc = jdbc;
        this.json = json;
        this.datasets = datasets;
        this.policies = policies;
        this.outbox = outbox;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Records the request's targets and publishes the tasks of those to delete, in the caller's transaction. */
    void publish(DeletionRequest request) {
        Map<String, Set<String>> idsBySource = new LinkedHashMap<>();
        idsBySource
                .computeIfAbsent(request.aggregateType(), s -> new LinkedHashSet<>())
                .add(request.aggregateId());
        request.childIds()
                .forEach((source, ids) -> idsBySource
                        .computeIfAbsent(source, s -> new LinkedHashSet<>())
                        .addAll(ids));
        CutoffTimestamp cutoff = CutoffTimestamp.fromInstant(request.tombstonedAt());
        for (DatasetView view : datasets.search(null, null, null, null)) {
            Set<String> ids = idsBySource.get(view.spec().identifierSource());
            if (ids != null && !ids.isEmpty()) {
                target(request, view, List.copyOf(ids), cutoff);
            }
        }
    }

    private void target(DeletionRequest request, DatasetView view, List<String> ids, CutoffTimestamp cutoff) {
        DatasetSpec spec = view.spec();
        List<Map<String, Object>> keys =
                ids.stream().map(id -> TargetPlan.keyOf(spec, id)).toList();
        ForwardPolicies.Policy policy = policies.policyOf(spec.name());
        List<String> clear = policy.taskClearColumns();
        TargetPlan plan = TargetPlan.of(spec, view.enabled(), policy.action(), () -> ownership.refusal(spec));
        List<DeletionTask> tasks = List.of();
        if (plan.publishes()) {
            tasks = TargetPlan.tasks(request.id(), spec, keys, cutoff, plan.lookup(), clear);
        } else if (plan.outcome() == TargetOutcome.NOT_GRANTED) {
            log.warn("request {}: nothing published for {}: {}", request.id(), spec.name(), plan.detail());
        }
        int inserted = jdbc.update(
                """
                        INSERT INTO forward_targets (request_id, dataset, event_id, key_set, identifier_source, action,
                            keys, task_ids, blocking, outcome, detail, confirmed, expected_keys, lookup, lookup_tasks,
                            clear_columns, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)
                        ON CONFLICT DO NOTHING""",
                request.id(),
                spec.name(),
                request.eventId(),
                TargetPlan.keySet(keys),
                spec.identifierSource(),
                policy.action().name(),
                json.writeValueAsString(keys),
                json.writeValueAsString(tasks.stream().map(DeletionTask::taskId).toList()),
                plan.blocking(),
                plan.outcome().name(),
                plan.detail(),
                !plan.blocking(),
                plan.expectedKeys(keys.size()),
                plan.recordedAsLookup(),
                plan.lookupTasks(tasks.size()),
                json.writeValueAsString(clear),
                Timestamp.from(clock.instant()));
        if (inserted == 0) {
            metrics.duplicateEffect();
            log.info(
                    "request {}: the deletion of these keys of {} by event {} is already recorded; not published again",
                    request.id(),
                    spec.name(),
                    request.eventId());
            return;
        }
        // each signed: the deletion service executes no forward task the control plane did not sign
        tasks.forEach(task -> outbox.addValue(
                Topics.DELETION_TASKS, Topics.taskKey(task), signer.sign(task), Topics.taskHeaders(task)));
    }

    /**
     * Publishes again the tasks of every target still waiting; their ids are the same, so deletion applies them once.
     * A target held for a missing grant is decided again ({@link TargetPlan}): published once its grant is back (by one
     * reconciler only), or left to the audit or kept as a snapshot if its dataset was disabled or its policy changed
     * meanwhile; a waiting target whose grant was withdrawn since is not published again (its tasks already out are
     * signed and may still run).
     */
    int republish(DeletionRequest request) {
        int sent = 0;
        CutoffTimestamp cutoff = CutoffTimestamp.fromInstant(request.tombstonedAt());
        List<OpenTarget> rows = jdbc.query(OPEN_TARGETS, OpenTarget::read, request.id());
        for (OpenTarget row : rows) {
            String dataset = row.dataset();
            boolean held = row.held();
            DatasetView view = datasets.get(dataset).orElse(null);
            if (view == null) {
                log.warn(
                        "request {}: dataset {} is no longer registered; its tasks cannot be re-published",
                        request.id(),
                        dataset);
                continue;
            }
            boolean lookup = row.lookup();
            if (held) {
                TargetPlan decision = TargetPlan.of(
                        view.spec(),
                        lookup,
                        view.enabled(),
                        policies.policyOf(dataset).action(),
                        () -> ownership.refusal(view.spec()));
                if (decision.outcome() == TargetOutcome.NOT_GRANTED) {
                    log.warn(
                            "request {}: the tasks of {} are not published: {}",
                            request.id(),
                            dataset,
                            decision.detail());
                    if (!decision.detail().equals(row.detail())) {
                        jdbc.update(
                                "UPDATE forward_targets SET detail = ?, updated_at = ? WHERE request_id = ?"
                                        + " AND dataset = ?",
                                decision.detail(),
                                Timestamp.from(clock.instant()),
                                request.id(),
                                dataset);
                    }
                    continue;
                }
                if (decision.outcome() != TargetOutcome.PENDING) {
                    // disabled, or its policy now keeps a snapshot, while it was held: decided as a new target would be
                    jdbc.update(
                            """
                                    UPDATE forward_targets SET outcome = ?, detail = ?, blocking = false,
                                        confirmed = true, updated_at = ?
                                    WHERE request_id = ? AND dataset = ? AND outcome = 'NOT_GRANTED'""",
                            decision.outcome().name(),
                            decision.detail(),
                            Timestamp.from(clock.instant()),
                            request.id(),
                            dataset);
                    continue;
                }
            } else {
                Optional<String> ungranted = ownership.refusal(view.spec());
                if (ungranted.isPresent()) {
                    log.warn(
                            "request {}: the tasks of {} are not re-published: {}",
                            request.id(),
                            dataset,
                            ungranted.get());
                    continue;
                }
            }
            List<DeletionTask> tasks;
            try {
                tasks = TargetPlan.tasks(
                        request.id(),
                        view.spec(),
                        json.readValue(row.keys(), KEYS),
                        cutoff,
                        lookup,
                        json.readValue(row.clear(), IDS));
            } catch (IllegalArgumentException changed) {
                // the dataset was registered again with other keys or columns: its tasks cannot be rebuilt, and one
                // such target must not stop the reconciler for every other request
                log.warn(
                        "request {}: the tasks of {} cannot be rebuilt from its current registration: {}",
                        request.id(),
                        dataset,
                        changed.getMessage());
                jdbc.update(
                        """
                                UPDATE forward_targets SET outcome = 'FAILED', detail = ?, updated_at = ?
                                WHERE request_id = ? AND dataset = ?""",
                        "cannot re-publish: " + changed.getMessage(),
                        Timestamp.from(clock.instant()),
                        request.id(),
                        dataset);
                continue;
            }
            if (held) {
                int released = jdbc.update(
                        """
                                UPDATE forward_targets SET outcome = 'PENDING', detail = NULL, task_ids = ?::jsonb,
                                    lookup_tasks = ?, updated_at = ?
                                WHERE request_id = ? AND dataset = ? AND outcome = 'NOT_GRANTED'""",
                        json.writeValueAsString(
                                tasks.stream().map(DeletionTask::taskId).toList()),
                        lookup ? tasks.size() : 0,
                        Timestamp.from(clock.instant()),
                        request.id(),
                        dataset);
                if (released == 0) {
                    continue; // another reconciler released it meanwhile, and published its tasks
                }
                log.info(
                        "request {}: the grant of {} is back; its {} tasks are published",
                        request.id(),
                        dataset,
                        tasks.size());
            }
            for (DeletionTask task : tasks) {
                outbox.addValue(
                        Topics.DELETION_TASKS, Topics.taskKey(task), signer.sign(task), Topics.taskHeaders(task));
                sent++;
            }
        }
        return sent;
    }

    /**
     * A target still waiting, as {@link #republish} reads it: its keys and cleared columns as recorded (JSON, read when
     * its tasks are rebuilt), whether it is a lookup target, held for its grant, and the detail shown.
     */
    private record OpenTarget(String dataset, String keys, boolean lookup, String clear, boolean held, String detail) {

        static OpenTarget read(ResultSet rs, int row) throws SQLException {
            return new OpenTarget(
                    rs.getString("dataset"),
                    rs.getString("keys"),
                    rs.getBoolean("lookup"),
                    rs.getString("clear"),
                    TargetOutcome.NOT_GRANTED.name().equals(rs.getString("outcome")),
                    rs.getString("detail"));
        }
    }

    /** Whether every target that must confirm has. */
    boolean allConfirmed(String requestId) {
        Integer open = jdbc.queryForObject(
                "SELECT count(*) FROM forward_targets WHERE request_id = ? AND blocking AND NOT confirmed",
                Integer.class,
                requestId);
        return open != null && open == 0;
    }

    List<ForwardTarget> of(String requestId) {
        return jdbc.query("SELECT * FROM forward_targets WHERE request_id = ? ORDER BY dataset", this::row, requestId);
    }

    private ForwardTarget row(ResultSet rs, int i) throws SQLException {
        return new ForwardTarget(
                rs.getString("dataset"),
                rs.getString("identifier_source"),
                ForwardAction.valueOf(rs.getString("action")),
                TargetOutcome.valueOf(rs.getString("outcome")),
                rs.getString("detail"),
                rs.getBoolean("blocking"),
                rs.getBoolean("confirmed"),
                rs.getInt("expected_keys"),
                json.readValue(rs.getString("task_ids"), IDS),
                rs.getLong("deleted"),
                rs.getLong("skipped_newer"),
                rs.getLong("already_absent"),
                rs.getLong("still_present"),
                rs.getInt("copy_tasks_expected"),
                rs.getInt("copy_tasks_reported"),
                rs.getBoolean("lookup"),
                json.readValue(rs.getString("clear_columns"), IDS));
    }
}
