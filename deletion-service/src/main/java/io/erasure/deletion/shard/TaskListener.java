package io.erasure.deletion.shard;

import io.erasure.deletion.execution.BatchExecutor;
import io.erasure.deletion.lookup.IdentifierResolver;
import io.erasure.deletion.trust.Refusal;
import io.erasure.deletion.trust.RefusedTasks;
import io.erasure.deletion.trust.TaskVerifier;
import io.erasure.model.task.DeletionTask;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The deletion shards: the partitions of {@code erasure.deletion.tasks}, shared by the replicas of each lane's
 * consumer group ({@link StoreLanes}: one lane per store), each served by its own listener thread. Within what a
 * poll brings, the lane's forward (event-driven) deletions go first, then by priority. Offsets are committed after
 * the poll's tasks are done; a crash redelivers them, which the executor absorbs (processed batches, re-planning).
 * The lanes start only once the kill switches are read; a poll that waits on a switch or outlasts its time budget
 * is handed back to the container, which keeps the consumer polling while it backs off.
 *
 * <p>Every task is checked before anything else ({@link TaskVerifier}): one that is not authorized deletes nothing and
 * is reported as refused ({@link RefusedTasks}), never as a failure of the run or request it claims. A task that passes
 * and is then refused by the executor (a cut-off in the future, a store it cannot use) is proven authentic, and fails
 * its run or request as a {@code BatchFailed}.
 */
public class TaskListener {

    private static final Logger log = LoggerFactory.getLogger(TaskListener.class);

    static final Comparator<DeletionTask> FORWARD_FIRST = Comparator.comparing((DeletionTask task) -> !task.forward())
            .thenComparing(Comparator.comparingInt(DeletionTask::priority).reversed());

    private final BatchExecutor executor;
    private final IdentifierResolver lookups;
    private final TaskVerifier verifier;
    private final JsonMapper json;
    private final Duration pollBudget;
    private final Clock clock;
    private final Counter unreadable;
    private final RefusedTasks refused;
    private final MeterRegistry meters;
    private volatile AfterTask afterTask = AfterTask.NONE;
    private volatile TaskReads reads = TaskReads.NONE;

    public TaskListener(
            BatchExecutor executor,
            IdentifierResolver lookups,
            TaskVerifier verifier,
            RefusedTasks refused,
            JsonMapper json,
            Duration pollBudget,
            Clock clock,
            MeterRegistry meters) {
        this.executor = executor;
        this.lookups = lookups;
        this.verifier = verifier;
        this.json = json;
        this.pollBudget = pollBudget;
        this.clock = clock;
        this.unreadable = Counter.builder("erasure.deletion.tasks.unreadable")
                .description("deletion tasks skipped because they cannot be read (each counted by one lane)")
                .register(meters);
        this.refused = refused;
        this.meters = meters;
    }

    /** Told of each task a lane reads and of each it reports unreadable; production has none, tests count with it. */
    public interface TaskReads {
        TaskReads NONE = new TaskReads() {};

        default void read(Lane lane, ConsumerRecord<String, String> record) {}

        default void unreadable(Lane lane, ConsumerRecord<String, String> record) {}
    }

    @Autowired(required = false)
    public void taskReads(TaskReads reads) {
        this.reads = reads;
    }

    /**
     * Told of each task the executor returned from (done, skipped or refused); e.g. purge/ keeps each dataset's spec.
     */
    @FunctionalInterface
    public interface AfterTask {
        AfterTask NONE = task -> {};

        void executed(DeletionTask task);
    }

    @Autowired(required = false)
    public void afterTask(AfterTask afterTask) {
        this.afterTask = afterTask;
    }

    /**
     * Executes the tasks of one poll that are the {@code lane}'s; the others belong to another lane and are passed
     * over, unread when their headers say whose they are. A task with headers is its headers' lane's, so that exactly
     * one lane reads it; that lane skips it if the task says otherwise ({@link Lane#contradiction}: a genuine task
     * copied with other headers, which must not run in another store's lane or unpaced).
     */
    public void onTasks(List<ConsumerRecord<String, String>> records, Lane lane) {
        List<Received> tasks = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            Optional<Boolean> byHeaders = lane.takes(record.headers());
            if (byHeaders.isPresent() && !byHeaders.get()) {
                continue;
            }
            DeletionTask task;
            try {
                reads.read(lane, record);
                task = json.readValue(record.value(), DeletionTask.class);
            } catch (JacksonException | IllegalArgumentException e) {
                // a task that cannot be read can never be executed safely: skip it loudly, once. Without headers every
                // lane reads it, and the fallback lane speaks for all
                if (byHeaders.isPresent() || lane.isFallback()) {
                    log.error(
                            "unreadable deletion task at {}-{}@{} skipped: {}",
                            record.topic(),
                            record.partition(),
                            record.offset(),
                            e.getMessage());
                    unreadable.increment();
                    reads.unreadable(lane, record);
                }
                continue;
            }
            if (byHeaders.isEmpty() && !lane.takes(task)) {
                continue;
            }
            if (byHeaders.isPresent()) {
                Optional<String> contradiction = Lane.contradiction(record.headers(), task);
                if (contradiction.isPresent()) {
                    log.warn(
                            "deletion task {} at {}-{}@{} skipped by {}: {}; it runs only in its own store's lane, from"
                                    + " a message whose headers agree with it",
                            task.taskId(),
                            record.topic(),
                            record.partition(),
                            record.offset(),
                            lane.id(),
                            contradiction.get());
                    Counter.builder("erasure.deletion.tasks.misrouted")
                            .description("deletion tasks skipped because their headers name another lane than the task"
                                    + " itself (a copy of a task with other headers)")
                            .tag("lane", lane.id())
                            .register(meters)
                            .increment();
                    continue;
                }
            }
            tasks.add(new Received(task, record));
        }
        tasks.sort(Comparator.comparing(Received::task, FORWARD_FIRST));
        // past this the rest of the poll is handed back, long before max.poll.interval.ms evicts the shard
        Instant handBackAt = clock.instant().plus(pollBudget);
        List<RefusedTasks.Sent> refusals = new ArrayList<>();
        for (Received received : tasks) {
            DeletionTask task = received.task();
            Optional<Refusal> refusal = verifier.refusal(task);
            if (refusal.isPresent()) {
                // not proven authentic: its ids are only claimed, so no run or request is failed by it
                refusals.add(refused.refuse(received.record(), task, refusal.get()));
                continue;
            }
            if (task.lookup()) {
                lookups.resolve(task); // finds the rows and publishes their tasks; deletes nothing
                continue;
            }
            executor.execute(task, handBackAt);
            afterTask.executed(task);
        }
        refused.await(refusals);
    }

    /** A task as read, with the message it came in. */
    private record Received(DeletionTask task, ConsumerRecord<String, String> record) {}
}
