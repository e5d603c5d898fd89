package io.erasure.model.task;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.TaskAuthority;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A batch of keys of one dataset to delete, with the cut-off and the frozen spec it must be
 * deleted under. Exactly one of {@code runId} (backlog deletion) and {@code requestId} (forward
 * deletion) is set: its {@link #origin()}. What it does to the rows is its {@link #effect()}; the fields below are
 * the wire form both are read from, kept as they are so that tasks already in Kafka, and their signatures, stay valid.
 *
 * <p>The task id is derived from the origin, the dataset and the <em>set</em> of keys
 * ({@link #taskIdFor}), so publishing the same batch twice yields the same task and the deletion
 * service applies it once.
 *
 * <p>Two kinds exist only in forward deletion:
 * <ul>
 *   <li>a <b>lookup</b> task ({@code lookupColumn} set): its keys are identifier values
 *       ({@code {lookupColumn: id}}) of a dataset whose identifier is an indexed column rather than its key. The
 *       deletion service finds the full keys of their rows with bounded, indexed reads and publishes them as
 *       ordinary tasks ({@link #resolvedFrom}); it deletes nothing itself.</li>
 *   <li>an <b>anonymising</b> task ({@code clearColumns} not empty): the rows are kept and only those columns
 *       are cleared (set to null), conditioned on the cut-off and logged write-ahead like a delete.</li>
 * </ul>
 *
 * <p>{@code spread} is set only on the tasks of a run whose frozen spec has {@code spreadOver}, by validation when it
 * publishes them ({@link #withSpread}); the deletion service then paces the run's batches over that window. Null
 * everywhere else: forward deletion and copies are never paced. It is not part of the task id.
 *
 * <p>{@code authority} proves the task may delete ({@link TaskAuthority}): the control plane's signed authorization of
 * the run (with the final-set part the keys come from), or a signature of this one task by the service that published
 * it. The deletion service refuses a task without a valid one. It is not part of the task id: the id says what the task
 * does, the authority who allowed it.
 */
public record DeletionTask(
        String taskId,
        @Nullable RunId runId,
        @Nullable String requestId,
        String dataset,
        DatasetSpec spec,
        List<Map<String, Object>> keys,
        CutoffTimestamp cutoff,
        int priority,
        @Nullable String copyOf,
        @Nullable String lookupColumn,
        List<String> clearColumns,

        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable SpreadWindow spread,

        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable TaskAuthority authority) {

    /** Keys per task: small enough for one Kafka message, large enough to batch well. */
    public static final int MAX_KEYS = 1_000;

    public DeletionTask {
        Names.opaqueId("task.taskId", taskId);
        if ((runId == null) == (requestId == null)) {
            throw new IllegalArgumentException("task must have exactly one of runId (backlog deletion) and requestId"
                    + " (forward deletion), got runId=" + runId + ", requestId=" + requestId);
        }
        if (requestId != null) {
            Names.opaqueId("task.requestId", requestId);
        }
        Require.nonNull("task.spec", spec);
        Require.nonNull("task.dataset", dataset);
        if (!dataset.equals(spec.name())) {
            throw new IllegalArgumentException(
                    "task.dataset '" + dataset + "' must equal the frozen spec's name '" + spec.name() + "'");
        }
        clearColumns = clearColumns == null ? List.of() : List.copyOf(clearColumns);
        keys = lookupColumn == null ? copyKeys(spec, keys) : copyIdentifiers(spec, lookupColumn, keys);
        if ((lookupColumn != null || !clearColumns.isEmpty()) && (requestId == null || copyOf != null)) {
            throw new IllegalArgumentException(
                    "lookup and anonymising tasks exist only in forward deletion of a dataset"
                            + " itself (requestId set, copyOf null)");
        }
        requireClearable(spec, clearColumns);
        Require.nonNull("task.cutoff", cutoff);
        Require.inRange("task.priority", priority, 0, DatasetSpec.MAX_PRIORITY);
        if (copyOf != null) {
            Names.datasetName("task.copyOf", copyOf);
            if (!dataset.startsWith(copyOf + DatasetCopy.VIEW_SEPARATOR)) {
                throw new IllegalArgumentException(
                        "task.dataset '" + dataset + "' is not a copy view of '" + copyOf + "'");
            }
        }
        requireSpreadFits(spec, runId, copyOf, keys, spread);
    }

    /** A task of a dataset itself (not of one of its copies). */
    public DeletionTask(
            String taskId,
            @Nullable RunId runId,
            @Nullable String requestId,
            String dataset,
            DatasetSpec spec,
            List<Map<String, Object>> keys,
            CutoffTimestamp cutoff,
            int priority) {
        this(taskId, runId, requestId, dataset, spec, keys, cutoff, priority, null);
    }

    /** A task that deletes rows by their full keys. */
    public DeletionTask(
            String taskId,
            @Nullable RunId runId,
            @Nullable String requestId,
            String dataset,
            DatasetSpec spec,
            List<Map<String, Object>> keys,
            CutoffTimestamp cutoff,
            int priority,
            @Nullable String copyOf) {
        this(taskId, runId, requestId, dataset, spec, keys, cutoff, priority, copyOf, null, List.of(), null, null);
    }

    /** A task with its lookup and anonymising fields and its window, not yet authorized. */
    public DeletionTask(
            String taskId,
            @Nullable RunId runId,
            @Nullable String requestId,
            String dataset,
            DatasetSpec spec,
            List<Map<String, Object>> keys,
            CutoffTimestamp cutoff,
            int priority,
            @Nullable String copyOf,
            @Nullable String lookupColumn,
            List<String> clearColumns,
            @Nullable SpreadWindow spread) {
        this(
                taskId,
                runId,
                requestId,
                dataset,
                spec,
                keys,
                cutoff,
                priority,
                copyOf,
                lookupColumn,
                clearColumns,
                spread,
                null);
    }

    /**
     * This task of a run, paced over {@code window} (its spec's {@code spreadOver} from when the tasks were published).
     */
    public DeletionTask withSpread(SpreadWindow window) {
        return new DeletionTask(
                taskId,
                runId,
                requestId,
                dataset,
                spec,
                keys,
                cutoff,
                priority,
                copyOf,
                lookupColumn,
                clearColumns,
                Require.nonNull("spread", window),
                authority);
    }

    /** This task carrying {@code authority} (what allows it to delete). */
    public DeletionTask withAuthority(TaskAuthority authority) {
        return new DeletionTask(
                taskId,
                runId,
                requestId,
                dataset,
                spec,
                keys,
                cutoff,
                priority,
                copyOf,
                lookupColumn,
                clearColumns,
                spread,
                Require.nonNull("authority", authority));
    }

    /**
     * The id this task's content gives ({@link #taskIdFor}): equal to {@code taskId} for every task built here. A
     * verifier recomputes it rather than trusting the {@code taskId} a message says.
     */
    public String contentId() {
        return taskIdFor(originId(), dataset, keys, lookupColumn, clearColumns);
    }

    /**
     * {@link #forCopy(DeletionTask, io.erasure.model.dataset.DatasetCopy, List, CutoffTimestamp)} at the source's
     * cut-off.
     */
    public static DeletionTask forCopy(DeletionTask source, DatasetCopy copy, List<Map<String, Object>> copyKeys) {
        return forCopy(source, copy, copyKeys, source.cutoff());
    }

    /**
     * The task that deletes {@code copyKeys} from one copy of {@code source}'s dataset, published by the
     * deletion service once the source rows are gone: same origin and priority, the copy's view as spec
     * ({@link io.erasure.model.dataset.DatasetCopy#viewOf}), and {@code copyOf} naming the source.
     *
     * <p>{@code copyCutoff} is when the source rows were known to be gone: a copy entry written before it may
     * have been filled from the deleted row (a cache refreshed after the backup), so it goes; one written after
     * it cannot come from the deleted row. It is never before the source's own cut-off.
     */
    public static DeletionTask forCopy(
            DeletionTask source, DatasetCopy copy, List<Map<String, Object>> copyKeys, CutoffTimestamp copyCutoff) {
        if (source.copyOf() != null) {
            throw new IllegalArgumentException(
                    "task " + source.taskId() + " already deletes a copy; copies have no copies");
        }
        Require.nonNull("copyCutoff", copyCutoff);
        if (copyCutoff.micros() < source.cutoff().micros()) {
            throw new IllegalArgumentException(
                    "a copy's cut-off " + copyCutoff + " must not be before its source's " + source.cutoff());
        }
        DatasetSpec view = copy.viewOf(source.spec());
        return new DeletionTask(
                taskIdFor(source.originId(), view.name(), copyKeys),
                source.runId(),
                source.requestId(),
                view.name(),
                view,
                copyKeys,
                copyCutoff,
                source.priority(),
                source.dataset());
    }

    /** A backlog-deletion task of a run, at the spec's priority. */
    public static DeletionTask forRun(
            RunId runId, DatasetSpec spec, List<Map<String, Object>> keys, CutoffTimestamp cutoff) {
        Require.nonNull("task.runId", runId);
        return new DeletionTask(
                taskIdFor(runId.value(), spec.name(), keys),
                runId,
                null,
                spec.name(),
                spec,
                keys,
                cutoff,
                spec.priority());
    }

    /** A forward-deletion task: the cut-off is the request's TOMBSTONED time. */
    public static DeletionTask forward(
            String requestId, DatasetSpec spec, List<Map<String, Object>> keys, CutoffTimestamp cutoff, int priority) {
        return forward(requestId, spec, keys, cutoff, priority, List.of());
    }

    /** A forward task that clears {@code clearColumns} of the rows (anonymises them), or deletes them when empty. */
    public static DeletionTask forward(
            String requestId,
            DatasetSpec spec,
            List<Map<String, Object>> keys,
            CutoffTimestamp cutoff,
            int priority,
            List<String> clearColumns) {
        Names.opaqueId("task.requestId", requestId);
        return new DeletionTask(
                taskIdFor(requestId, spec.name(), keys, null, clearColumns),
                null,
                requestId,
                spec.name(),
                spec,
                keys,
                cutoff,
                priority,
                null,
                null,
                clearColumns,
                null);
    }

    /**
     * A forward lookup task: {@code identifiers} are values of the dataset's identifier column, which is indexed
     * but not its key; the deletion service resolves them into the rows' keys ({@link #resolvedFrom}).
     */
    public static DeletionTask forwardLookup(
            String requestId,
            DatasetSpec spec,
            List<Map<String, Object>> identifiers,
            CutoffTimestamp cutoff,
            int priority,
            List<String> clearColumns) {
        Names.opaqueId("task.requestId", requestId);
        String column = spec.identifierColumn();
        return new DeletionTask(
                taskIdFor(requestId, spec.name(), identifiers, column, clearColumns),
                null,
                requestId,
                spec.name(),
                spec,
                identifiers,
                cutoff,
                priority,
                null,
                column,
                clearColumns,
                null);
    }

    /** An ordinary task for {@code keys} found by the lookup task {@code lookup}: same request, cut-off and effect. */
    public static DeletionTask resolvedFrom(DeletionTask lookup, List<Map<String, Object>> keys) {
        if (lookup.lookupColumn() == null) {
            throw new IllegalArgumentException("task " + lookup.taskId() + " is not a lookup task");
        }
        return forward(
                Objects.requireNonNull(lookup.requestId(), "a lookup task belongs to a request"),
                lookup.spec(),
                keys,
                lookup.cutoff(),
                lookup.priority(),
                lookup.clearColumns());
    }

    /**
     * {@code task-} + 40 hex characters of SHA-256 over (origin id, dataset, the sorted canonical
     * keys): independent of key order and of how numbers were typed.
     */
    public static String taskIdFor(String runOrRequestId, String dataset, List<? extends Map<String, ?>> keys) {
        return taskIdFor(runOrRequestId, dataset, keys, null, List.of());
    }

    /** As above; a lookup task and an anonymising task have ids of their own (their effect differs). */
    static String taskIdFor(
            String runOrRequestId,
            String dataset,
            List<? extends Map<String, ?>> keys,
            @Nullable String lookupColumn,
            List<String> clearColumns) {
        Require.nonNull("keys", keys);
        List<String> parts = new ArrayList<>(keys.size() + 5);
        parts.add("deletion-task-v1");
        parts.add(Require.nonNull("runOrRequestId", runOrRequestId));
        parts.add(Require.nonNull("dataset", dataset));
        if (lookupColumn != null) {
            parts.add("lookup:" + lookupColumn);
        }
        if (clearColumns != null && !clearColumns.isEmpty()) {
            parts.add("clear:" + String.join(",", clearColumns.stream().sorted().toList()));
        }
        keys.stream().map(CanonicalKey::render).sorted().forEach(parts::add);
        return "task-" + DeterministicId.sha256Hex(parts.toArray(String[]::new)).substring(0, 40);
    }

    /** {@code keys} cut into consecutive parts of at most {@link #MAX_KEYS}, one per task, in order. */
    public static <K> List<List<K>> taskSized(List<K> keys) {
        List<List<K>> parts = new ArrayList<>((keys.size() + MAX_KEYS - 1) / MAX_KEYS);
        for (int from = 0; from < keys.size(); from += MAX_KEYS) {
            parts.add(keys.subList(from, Math.min(keys.size(), from + MAX_KEYS)));
        }
        return parts;
    }

    /** Why this task exists: its run or its request. */
    public TaskOrigin origin() {
        return runId != null
                ? new TaskOrigin.Run(runId)
                : new TaskOrigin.Request(Objects.requireNonNull(requestId, "neither a run nor a request"));
    }

    /** What this task does to its rows: delete them, clear columns, or find them first by an identifier. */
    public TaskEffect effect() {
        TaskEffect onRows = clearColumns.isEmpty() ? TaskEffect.DELETE : new TaskEffect.Clear(clearColumns);
        return lookupColumn == null ? onRows : new TaskEffect.Lookup(lookupColumn, onRows);
    }

    /**
     * The authorization this task needs to delete: {@code COPY} for a copy's task (whatever its origin), {@code RUN}
     * for a run's own, {@code FORWARD} for a request's.
     */
    public Authorization.Kind authorizationKind() {
        if (copyOf != null) {
            return Authorization.Kind.COPY;
        }
        return origin() instanceof TaskOrigin.Run ? Authorization.Kind.RUN : Authorization.Kind.FORWARD;
    }

    /** The run id or the request id, whichever this task belongs to ({@link #origin()}'s id). */
    public String originId() {
        return origin().id();
    }

    /** True for a task of a forward-deletion request ({@link TaskOrigin.Request}). */
    public boolean forward() {
        return origin() instanceof TaskOrigin.Request;
    }

    /**
     * The dataset whose kill switch and cancellations govern this task: the source dataset for a copy task
     * (its own name is the copy's view, which no operator ever switches off), the dataset itself otherwise.
     */
    public String controlScope() {
        return copyOf != null ? copyOf : dataset;
    }

    /** True for a lookup task ({@link TaskEffect.Lookup}: its keys are identifier values to resolve, not rows). */
    public boolean lookup() {
        return effect() instanceof TaskEffect.Lookup;
    }

    /** True for a task whose batches are paced over its run's spread window. */
    public boolean paced() {
        return spread != null;
    }

    /** True for a task whose rows are cleared, not deleted ({@link TaskEffect.Clear}, directly or after a lookup). */
    public boolean anonymising() {
        return effect().onRows() instanceof TaskEffect.Clear;
    }

    /** The id of the {@code index}-th batch the deletion service cuts this task into. */
    public String batchId(int index) {
        return taskId + "-b" + Require.inRange("batch index", index, 0, MAX_KEYS);
    }

    private static List<Map<String, Object>> copyIdentifiers(
            DatasetSpec spec, String column, List<Map<String, Object>> identifiers) {
        if (!column.equals(spec.identifierColumn())) {
            throw new IllegalArgumentException("task.lookupColumn '" + column
                    + "' must be the dataset's identifier column '" + spec.identifierColumn() + "'");
        }
        List<Map<String, Object>> copy = Require.nonEmptyListOf("task.keys", identifiers);
        if (copy.size() > MAX_KEYS) {
            throw new IllegalArgumentException(
                    "task.keys has " + copy.size() + " identifiers; split it into tasks of at most " + MAX_KEYS);
        }
        List<Map<String, Object>> checked = new ArrayList<>(copy.size());
        for (int i = 0; i < copy.size(); i++) {
            String field = "task.keys[" + i + "]";
            if (!copy.get(i).keySet().equals(Set.of(column))) {
                throw new IllegalArgumentException(field + " of a lookup task must hold exactly the identifier column '"
                        + column + "', got " + copy.get(i).keySet());
            }
            checked.add(CanonicalKey.copyOf(field, copy.get(i)));
        }
        return List.copyOf(checked);
    }

    /** Only a run's own tasks are paced, over exactly the window their frozen spec asks for. */
    private static void requireSpreadFits(
            DatasetSpec spec,
            @Nullable RunId runId,
            @Nullable String copyOf,
            List<Map<String, Object>> keys,
            @Nullable SpreadWindow spread) {
        if (spread == null) {
            return;
        }
        if (runId == null || copyOf != null) {
            throw new IllegalArgumentException(
                    "task.spread is only for a run's own tasks; forward deletion and copies are" + " never paced");
        }
        if (!spread.length().equals(spec.spreadOver())) {
            throw new IllegalArgumentException("task.spread lasts " + spread.length()
                    + " but the frozen spec's spreadOver is " + spec.spreadOver());
        }
        if (spread.plannedKeys() < keys.size()) {
            throw new IllegalArgumentException("task.spread.plannedKeys (" + spread.plannedKeys()
                    + ", the run's keys) must" + " be at least this task's " + keys.size() + " keys");
        }
    }

    /** Columns an anonymising task may clear: distinct, named safely, and never part of the key. */
    public static void requireClearable(DatasetSpec spec, List<String> columns) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < columns.size(); i++) {
            String column = columns.get(i);
            Names.identifier("clearColumns[" + i + "]", column);
            if (spec.keyColumns().primaryKey().contains(column)) {
                throw new IllegalArgumentException("clearColumns[" + i + "] '" + column + "' is a key column of "
                        + spec.name() + "; a key cannot be anonymised, only the row deleted");
            }
            if (!seen.add(column)) {
                throw new IllegalArgumentException("clearColumns repeats '" + column + "'");
            }
        }
    }

    private static List<Map<String, Object>> copyKeys(DatasetSpec spec, List<Map<String, Object>> keys) {
        List<Map<String, Object>> copy = Require.nonEmptyListOf("task.keys", keys);
        if (copy.size() > MAX_KEYS) {
            throw new IllegalArgumentException(
                    "task.keys has " + copy.size() + " keys; split it into tasks of at most " + MAX_KEYS);
        }
        List<Map<String, Object>> checked = new ArrayList<>(copy.size());
        for (int i = 0; i < copy.size(); i++) {
            String field = "task.keys[" + i + "]";
            spec.keyColumns().requireFullKey(field, copy.get(i));
            checked.add(CanonicalKey.copyOf(field, copy.get(i)));
        }
        return List.copyOf(checked);
    }
}
