package io.erasure.deletion;

import io.erasure.deletion.execution.Step;
import io.erasure.deletion.execution.StepListener;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
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
 * cache tier {@code redis-main}, for copies), Cassandra ({@code cass-main}), Kafka and S3, and a step listener tests can arm to crash a batch at a chosen step.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "erasure.deletion.kill-switch-poll=100ms",
        "erasure.deletion.retry-attempts=2"})
@Import({DeletionTestSupport.Crashes.class, LogIngestStandIn.class})
public abstract class DeletionTestSupport {

    /** A second way to the same PostgreSQL, through a gate tests can cut: connection {@code pg-gated}. */
    protected static final TcpGate GATE = new TcpGate(io.erasure.infra.process.FreePorts.next(),
            LocalEngines.postgres().port());

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        PostgresEngine postgres = LocalEngines.postgres();
        postgres.storeConnectionProperties("pg-gated").forEach((name, value) -> registry.add(name,
                () -> value.replace(":" + postgres.port() + "/", ":" + GATE.port() + "/")));
        registry.add("erasure.connections[pg-gated].settings[statement-timeout-ms]", () -> "2000");
        postgres.springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.kafka().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.s3().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        postgres.storeConnectionProperties("pg-main").forEach((name, value) -> registry.add(name, () -> value));
        // a category tree: deleting a category deletes its whole subtree (ForwardTreeIT)
        registry.add("erasure.connections[pg-main].settings[hierarchy." + ForwardTreeIT.DATASET + ".tree.parent-column]",
                () -> "parent_id");
        // its identifier is the category's own id: the categories under a deleted one go with it
        registry.add("erasure.connections[pg-main].settings[hierarchy." + ForwardTreeIT.DATASET + ".tree.node-identifier]",
                () -> "inherited");
        // a cache tier for copies
        LocalEngines.redis().storeConnectionProperties("redis-main").forEach((name, value) -> registry.add(name, () -> value));
        // a Cassandra store with JMX, for the purge status ("deleted but still on disk")
        LocalEngines.cassandra().storeConnectionProperties("cass-main").forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcTemplate jdbc;

    @Autowired
    protected Crashes crashes;

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

    public static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash(String message) {
            super(message);
        }
    }
}
