package io.erasure.deletion;

import io.erasure.deletion.execution.Step;
import io.erasure.deletion.execution.StepListener;
import io.erasure.deletion.shard.Lane;
import io.erasure.deletion.shard.TaskListener;
import io.erasure.deletionlog.client.SealedRecords;
import io.erasure.deletionlog.client.SealedRecords.KeyGone;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import io.erasure.infra.process.FreePorts;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One context for every deletion IT: real PostgreSQL (also the target store {@code pg-main}), Redis (the
 * cache tier {@code redis-main}, for copies), Cassandra ({@code cass-main}), Kafka and S3, and a step listener tests
 * can arm to crash a batch at a chosen step.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "erasure.deletion.kill-switch-poll=100ms",
            // pauses longer than this hand their poll back to the container (kill-switch tests pause for seconds)
            "erasure.deletion.pause-hold=1s",
            "erasure.deletion.retry-attempts=2"
        })
@Import({
    DeletionTestSupport.Crashes.class,
    DeletionTestSupport.Reads.class,
    LogIngestStandIn.class,
    AuthorizedRuns.class
})
public abstract class DeletionTestSupport {

    /** A second way to the same PostgreSQL, through a gate tests can cut: connection {@code pg-gated}. */
    protected static final TcpGate GATE =
            new TcpGate(FreePorts.next(), LocalEngines.postgres().port());

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        PostgresEngine postgres = LocalEngines.postgres();
        postgres.storeConnectionProperties("pg-gated")
                .forEach((name, value) ->
                        registry.add(name, () -> value.replace(":" + postgres.port() + "/", ":" + GATE.port() + "/")));
        registry.add("erasure.connections[pg-gated].settings[statement-timeout-ms]", () -> "2000");
        postgres.springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.kafka().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.s3().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        postgres.storeConnectionProperties("pg-main").forEach((name, value) -> registry.add(name, () -> value));
        // a category tree: deleting a category deletes its whole subtree (ForwardTreeIT)
        registry.add(
                "erasure.connections[pg-main].settings[hierarchy." + ForwardTreeIT.DATASET + ".tree.parent-column]",
                () -> "parent_id");
        // its identifier is the category's own id: the categories under a deleted one go with it
        registry.add(
                "erasure.connections[pg-main].settings[hierarchy." + ForwardTreeIT.DATASET + ".tree.node-identifier]",
                () -> "inherited");
        // a cache tier for copies
        LocalEngines.redis()
                .storeConnectionProperties("redis-main")
                .forEach((name, value) -> registry.add(name, () -> value));
        // a Cassandra store with JMX, for the purge status ("deleted but still on disk")
        LocalEngines.cassandra()
                .storeConnectionProperties("cass-main")
                .forEach((name, value) -> registry.add(name, () -> value));
        // the deletion log's Cassandra: records are sealed with its dataset keys (its tables: LogIngestStandIn)
        LocalEngines.cassandra().springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcTemplate jdbc;

    @Autowired
    protected Crashes crashes;

    /** Authorizes a run's tasks as validation and the control plane would (final set in S3, signed authorization). */
    @Autowired
    protected AuthorizedRuns runs;

    private final Map<String, DeletionTask> authorizedTasks = new ConcurrentHashMap<>();

    /**
     * {@code task} as the platform publishes it: a run's own task authorized (once: publishing it again sends the same
     * authorized task), a forward task signed by the control plane, a copy task by this service.
     */
    protected DeletionTask authorized(DeletionTask task) {
        if (task.authority() != null) {
            return task;
        }
        if (task.copyOf() != null) {
            return AuthorizedRuns.DELETION_TASKS.sign(task);
        }
        if (task.runId() == null) {
            return AuthorizedRuns.CONTROL_PLANE_TASKS.sign(task);
        }
        return authorizedTasks.computeIfAbsent(task.taskId() + "|" + task.paced(), id -> runs.authorize(task));
    }

    @Autowired
    protected Reads reads;

    /** Opens the records on the log topic as deletion-log-service does (they are sealed with their dataset's key). */
    @Autowired
    protected Supplier<SealedRecords> sealedRecords;

    /** A record of the log topic; one of a dataset purged by another test reads as a record of no run of this one. */
    protected DeletionRecord logged(String message) {
        try {
            return sealedRecords.get().openFromTopic(message);
        } catch (KeyGone purged) {
            return PURGED;
        }
    }

    private static final DeletionRecord PURGED = new DeletionRecord(
            "0".repeat(64),
            "purged",
            Map.of("id", 0),
            List.of(ColumnValue.of("id", 0)),
            CutoffTimestamp.ofMicros(1),
            RunId.of("purged-record"),
            null,
            "purged",
            "purged",
            Instant.EPOCH,
            null);

    /**
     * Makes the next batch with the armed id throw after the armed step, once, as a crash would; or runs an armed
     * action there, once (e.g. a live write landing between two steps).
     */
    @TestConfiguration
    public static class Crashes implements StepListener {
        private final AtomicReference<String> armed = new AtomicReference<>();
        private final Map<String, Runnable> actions = new ConcurrentHashMap<>();

        public void arm(Step step, String batchId) {
            armed.set(step + "@" + batchId);
        }

        public void runAfter(Step step, String batchId, Runnable action) {
            actions.put(step + "@" + batchId, action);
        }

        @Override
        public void after(Step step, String batchId) {
            Runnable action = actions.remove(step + "@" + batchId);
            if (action != null) {
                action.run();
            }
            if (armed.compareAndSet(step + "@" + batchId, null)) {
                throw new SimulatedCrash("crash after " + step + " of " + batchId);
            }
        }
    }

    /** Which lanes read (or reported unreadable) each task message, by the message's key. */
    @TestConfiguration
    public static class Reads implements TaskListener.TaskReads {
        private final Map<String, List<String>> read = new ConcurrentHashMap<>();
        private final Map<String, List<String>> unreadable = new ConcurrentHashMap<>();

        @Override
        public void read(Lane lane, ConsumerRecord<String, String> record) {
            read.computeIfAbsent(record.key(), key -> new CopyOnWriteArrayList<>())
                    .add(lane.id());
        }

        @Override
        public void unreadable(Lane lane, ConsumerRecord<String, String> record) {
            unreadable
                    .computeIfAbsent(record.key(), key -> new CopyOnWriteArrayList<>())
                    .add(lane.id());
        }

        /** The lanes that read the task messages keyed {@code key}, once per read. */
        public List<String> readBy(String key) {
            return List.copyOf(read.getOrDefault(key, List.of()));
        }

        /** The lanes that reported a message keyed {@code key} unreadable. */
        public List<String> reportedUnreadableBy(String key) {
            return List.copyOf(unreadable.getOrDefault(key, List.of()));
        }
    }

    public static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash(String message) {
            super(message);
        }
    }
}
