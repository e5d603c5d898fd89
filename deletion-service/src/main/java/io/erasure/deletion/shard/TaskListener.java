package io.erasure.deletion.shard;

import io.erasure.deletion.execution.BatchExecutor;
import io.erasure.deletion.lookup.IdentifierResolver;
import io.erasure.model.contract.Topics;
import io.erasure.model.task.DeletionTask;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
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
 */
public class TaskListener {

    private static final Logger log = LoggerFactory.getLogger(TaskListener.class);

    static final Comparator<DeletionTask> FORWARD_FIRST = Comparator
            .comparing((DeletionTask task) -> !task.forward())
            .thenComparing(Comparator.comparingInt(DeletionTask::priority).reversed());

    private final BatchExecutor executor;
    private final IdentifierResolver lookups;
    private final JsonMapper json;
    private final Duration pollBudget;
    private final Clock clock;
    private volatile AfterTask afterTask = AfterTask.NONE;

    public TaskListener(BatchExecutor executor, IdentifierResolver lookups, JsonMapper json, Duration pollBudget,
                        Clock clock) {
        this.executor = executor;
        this.lookups = lookups;
        this.json = json;
        this.pollBudget = pollBudget;
        this.clock = clock;
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
     * Executes the tasks of one poll of a lane that are {@code mine} (of the lane's store); the others belong to
     * another lane and are passed over.
     */
    public void onTasks(List<ConsumerRecord<String, String>> records, Predicate<DeletionTask> mine) {
        List<DeletionTask> tasks = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            try {
                DeletionTask task = json.readValue(record.value(), DeletionTask.class);
                if (mine.test(task)) {
                    tasks.add(task);
                }
            } catch (JacksonException | IllegalArgumentException e) {
                // a task that cannot be read can never be executed safely: skip it loudly
                log.error("unreadable deletion task at {}-{}@{} skipped: {}", record.topic(), record.partition(),
                        record.offset(), e.getMessage());
            }
        }
        tasks.sort(FORWARD_FIRST);
        // past this the rest of the poll is handed back, long before max.poll.interval.ms evicts the shard
        Instant handBackAt = clock.instant().plus(pollBudget);
        for (DeletionTask task : tasks) {
            if (task.lookup()) {
                lookups.resolve(task); // finds the rows and publishes their tasks; deletes nothing
                continue;
            }
            executor.execute(task, handBackAt);
            afterTask.executed(task);
        }
    }
}
