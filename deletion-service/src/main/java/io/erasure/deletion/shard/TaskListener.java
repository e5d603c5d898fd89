package io.erasure.deletion.shard;

import io.erasure.deletion.execution.BatchExecutor;
import io.erasure.deletion.lookup.IdentifierResolver;
import io.erasure.deletion.trust.TaskVerifier;
import io.erasure.model.contract.Topics;
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
 * <p>Every task is checked before anything else ({@link TaskVerifier}): one that is not authorized is reported as
 * refused and deletes nothing.
 */
public class TaskListener {

    private static final Logger log = LoggerFactory.getLogger(TaskListener.class);

    static final Comparator<DeletionTask> FORWARD_FIRST = Comparator
            .comparing((DeletionTask task) -> !task.forward())
            .thenComparing(Comparator.comparingInt(DeletionTask::priority).reversed());

    private final BatchExecutor executor;
    private final IdentifierResolver lookups;
    private final TaskVerifier verifier;
    private final JsonMapper json;
    private final Duration pollBudget;
    private final Clock clock;
    private final Counter unreadable;
    private final Counter refused;
    private volatile AfterTask afterTask = AfterTask.NONE;
    private volatile TaskReads reads = TaskReads.NONE;

    public TaskListener(BatchExecutor executor, IdentifierResolver lookups, TaskVerifier verifier, JsonMapper json,
                        Duration pollBudget, Clock clock, MeterRegistry meters) {
        this.executor = executor;
        this.lookups = lookups;
        this.verifier = verifier;
        this.json = json;
        this.pollBudget = pollBudget;
        this.clock = clock;
        this.unreadable = Counter.builder("erasure.deletion.tasks.unreadable")
                .description("deletion tasks skipped because they cannot be read (each counted by one lane)")
                .register(meters);
        this.refused = Counter.builder("erasure.deletion.tasks.refused")
                .description("deletion tasks refused because they are not authorized (unsigned, forged or altered)")
                .register(meters);
    }

    /** Told of each task a lane reads and of each it reports unreadable; production has none, tests count with it. */
    public interface TaskReads {
        TaskReads NONE = new TaskReads() {
        };

        default void read(Lane lane, ConsumerRecord<String, String> record) {
        }

        default void unreadable(Lane lane, ConsumerRecord<String, String> record) {
        }
    }

    @Autowired(required = false)
    public void taskReads(TaskReads reads) {
        this.reads = reads;
    }

    /** Told of each task the executor returned from (done, skipped or refused); e.g. purge/ keeps each dataset's spec. */
    @FunctionalInterface
    public interface AfterTask {
        AfterTask NONE = task -> { };

        void executed(DeletionTask task);
    }

    @Autowired(required = false)
    public void afterTask(AfterTask afterTask) {
        this.afterTask = afterTask;
    }

    /**
     * Executes the tasks of one poll that are the {@code lane}'s; the others belong to another lane and are passed
     * over, unread when their headers say whose they are. A task with headers is its headers' lane's, whatever it
     * holds, so that exactly one lane executes it.
     */
    public void onTasks(List<ConsumerRecord<String, String>> records, Lane lane) {
        List<DeletionTask> tasks = new ArrayList<>();
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
                    log.error("unreadable deletion task at {}-{}@{} skipped: {}", record.topic(), record.partition(),
                            record.offset(), e.getMessage());
                    unreadable.increment();
                    reads.unreadable(lane, record);
                }
                continue;
            }
            if (byHeaders.isEmpty() && !lane.takes(task)) {
                continue;
            }
            if (byHeaders.isPresent() && !lane.takes(task)) {
                log.warn("deletion task {} at {}-{}@{} is of store {}{}, but its headers name this lane's ({}): executed"
                        + " here", task.taskId(), record.topic(), record.partition(), record.offset(),
                        task.spec().connectionRef(), task.paced() ? " (paced)" : "", lane.id());
            }
            tasks.add(task);
        }
        tasks.sort(FORWARD_FIRST);
        // past this the rest of the poll is handed back, long before max.poll.interval.ms evicts the shard
        Instant handBackAt = clock.instant().plus(pollBudget);
        for (DeletionTask task : tasks) {
            Optional<String> refusal = verifier.refusal(task);
            if (refusal.isPresent()) {
                refused.increment();
                executor.refuse(task, refusal.get()); // reported, nothing read or deleted
                continue;
            }
            if (task.lookup()) {
                lookups.resolve(task); // finds the rows and publishes their tasks; deletes nothing
                continue;
            }
            executor.execute(task, handBackAt);
            afterTask.executed(task);
        }
    }
}
