package io.erasure.model.contract;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.task.RefusedTask;
import java.util.List;
import java.util.Map;

/** The Kafka topics between services and how each is keyed; the names here are the contract. */
public final class Topics {

    /** control-plane → audit, validation; key: run id. */
    public static final String RUN_COMMANDS = "erasure.run.commands";
    /** audit, validation, deletion → control-plane; key: run id (forward-deletion batches: request id). */
    public static final String RUN_EVENTS = "erasure.run.events";
    /** audit → audit consumer group, one unit per backup part; key: run id. */
    public static final String AUDIT_UNITS = "erasure.audit.units";
    /**
     * validation and forward deletion → deletion; key: dataset + partition key. Each task carries the headers
     * {@link #TASK_STORE} and, for a run spread over a window, {@link #TASK_PACED}, so each deletion lane takes its
     * own tasks without reading the others'; a task without them (published before they existed) is read to tell.
     */
    public static final String DELETION_TASKS = "erasure.deletion.tasks";
    /**
     * deletion → control-plane, operators: the tasks the deletion service refused because it could not prove them
     * authentic ({@link io.erasure.model.task.RefusedTask}); key: the run or request id the task claims. A refused task
     * changes no run's or request's state: these only make refusals visible.
     */
    public static final String DELETION_TASKS_REFUSED = "erasure.deletion.tasks.refused";
    /** Header of {@link #DELETION_TASKS}: the task's store, its spec's connection ref (UTF-8). */
    public static final String TASK_STORE = "erasure.store";
    /** Header of {@link #DELETION_TASKS}: {@code true} on a task of a run spread over a window; absent otherwise. */
    public static final String TASK_PACED = "erasure.paced";
    /**
     * deletion → deletion-log, written before each delete; key: dataset + hash of the primary key ({@link #logKey}).
     * The row itself is sealed with its dataset's data key (deletion-log-client's {@code SealedRecords}).
     */
    public static final String DELETION_LOG = "erasure.deletion.log";
    /**
     * deletion-log → operators: log records the ingest could not store (unreadable, or a format it does not know), kept
     * 30 days like the log; key: the original key. Each carries the headers {@link #DEAD_LETTER_DATASET} (the dataset,
     * or {@code global} when it cannot be told), {@link #DEAD_LETTER_REASON} and the original topic, partition and
     * offset. Deletion of a dataset stops while it has a dead letter the group {@link #DEAD_LETTERS_RESOLVED_GROUP} has
     * not committed past (all datasets for a {@code global} one): an operator repairs the record, then moves that
     * group's offset.
     */
    public static final String DELETION_LOG_DEAD_LETTER = "erasure.deletion.log.dead-letter";
    /**
     * The consumer group whose committed offsets on {@link #DELETION_LOG_DEAD_LETTER} mark dead letters as resolved.
     */
    public static final String DEAD_LETTERS_RESOLVED_GROUP = "erasure-dead-letters-resolved";

    public static final String DEAD_LETTER_DATASET = "erasure.dataset";
    public static final String DEAD_LETTER_REASON = "erasure.reason";
    public static final String DEAD_LETTER_ORIGIN = "erasure.origin";
    /**
     * deletion → control-plane: each replica's throttle per store every few seconds
     * ({@link io.erasure.model.event.ThrottleSample}), the dashboard's rate and limit history; key: the replica. Kept
     * a day: display only, no decision is taken on it.
     */
    public static final String THROTTLE_SAMPLES = "erasure.throttle.samples";
    /** How long {@link #THROTTLE_SAMPLES} keeps samples: the dashboard's window, in milliseconds. */
    public static final long THROTTLE_SAMPLES_RETENTION_MS = 86_400_000L;
    /** control-plane → deletion; compacted; key: {@code global} or a dataset. */
    public static final String CONTROL = "erasure.control";
    /** upstream systems / REST → control-plane; key: identifier. */
    public static final String FORWARD_REQUESTS = "erasure.forward.requests";

    public static final List<String> ALL = List.of(
            RUN_COMMANDS,
            RUN_EVENTS,
            AUDIT_UNITS,
            DELETION_TASKS,
            DELETION_LOG,
            CONTROL,
            FORWARD_REQUESTS,
            DELETION_LOG_DEAD_LETTER,
            DELETION_TASKS_REFUSED,
            THROTTLE_SAMPLES);

    /** Key of {@link #CONTROL} messages for platform-wide signals. */
    public static final String CONTROL_GLOBAL_KEY = Names.RESERVED_GLOBAL;

    private Topics() {}

    /** Key for {@link #RUN_COMMANDS}, {@link #RUN_EVENTS} and {@link #AUDIT_UNITS}. */
    public static String runKey(RunId runId) {
        return Require.nonNull("runId", runId).value();
    }

    /**
     * Key for {@link #DELETION_TASKS}: {@code dataset|{"col":value,...}}, so all tasks touching one
     * partition land on one deletion shard, in order.
     */
    public static String taskKey(String dataset, Map<String, ?> partitionKey) {
        return Names.datasetName("dataset", dataset) + "|" + CanonicalKey.render(partitionKey);
    }

    /**
     * A task's key: the partition of its first key (validation groups a task's keys by partition where it can);
     * for a lookup task, whose keys are identifiers, its first identifier.
     */
    public static String taskKey(DeletionTask task) {
        return taskKey(
                task.dataset(),
                task.lookup()
                        ? task.keys().get(0)
                        : task.spec().keyColumns().partitionKeyOf(task.keys().get(0)));
    }

    /**
     * The headers of {@code task}'s message on {@link #DELETION_TASKS}: {@link #TASK_STORE}, and {@link #TASK_PACED}.
     */
    public static Map<String, String> taskHeaders(DeletionTask task) {
        String store = task.spec().connectionRef();
        return task.paced() ? Map.of(TASK_STORE, store, TASK_PACED, "true") : Map.of(TASK_STORE, store);
    }

    /**
     * Key for {@link #DELETION_LOG}: {@code dataset|<SHA-256 of (dataset, canonical primary key)>}, the log's key hash
     * (the primary key is a column value and must not travel in clear; records of one row still share a partition, in
     * order).
     */
    public static String logKey(String dataset, Map<String, ?> primaryKey) {
        return Names.datasetName("dataset", dataset) + "|"
                + DeterministicId.sha256Hex("deletion-log-key-v1", dataset, CanonicalKey.render(primaryKey));
    }

    public static String logKey(DeletionRecord record) {
        return logKey(record.dataset(), record.primaryKey());
    }

    /** Key for {@link #DELETION_TASKS_REFUSED}: the run or request id the refused task claims. */
    public static String refusedTaskKey(RefusedTask refused) {
        return refused.originId();
    }

    /** Key for {@link #CONTROL}: the dataset, or {@code global} when {@code dataset} is null. */
    public static String controlKey(String dataset) {
        return dataset == null ? CONTROL_GLOBAL_KEY : Names.datasetName("dataset", dataset);
    }

    public static String controlKey(ControlSignal signal) {
        return signal.scope();
    }

    /**
     * Key for {@link #FORWARD_REQUESTS}: {@code aggregateType|aggregateId}, so requests for one identifier stay in
     * order.
     */
    public static String forwardRequestKey(String aggregateType, String aggregateId) {
        return Names.datasetName("aggregateType", aggregateType) + "|" + Require.nonBlank("aggregateId", aggregateId);
    }
}
