package io.erasure.controlplane.bench;

import io.erasure.controlplane.ControlPlaneApplication;
import io.erasure.controlplane.forward.ForwardProgress;
import io.erasure.controlplane.run.RunProgress;
import io.erasure.controlplane.run.RunStore;
import io.erasure.infra.LocalEngines;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The cost of one {@code BatchCompleted} as a run's batch count grows: for each size in {@code bench.sizes}
 * (default 1,000 and 10,000) it starts a DELETING run of that many tasks and applies that many batch results
 * through {@link RunProgress#apply} (the listener's transaction, without Kafka in the way), then prints the
 * time per event over the whole run and over its last 1,000 events; then the same for the batches of one
 * forward-deletion target through {@link ForwardProgress#apply}. Against the local PostgreSQL (and Kafka
 * and S3, which the context needs). Not a test: it asserts nothing and never runs in {@code verify}.
 *
 * <pre>
 * ./mvnw -B -q -o -f control-plane/pom.xml test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=/tmp/cp-control-plane.txt -Dmdep.includeScope=test
 * java -cp control-plane/target/test-classes:control-plane/target/classes:$(cat /tmp/cp-control-plane.txt) \
 *   [-Dbench.sizes=1000,10000] io.erasure.controlplane.bench.RunProgressBenchmark
 * </pre>
 * (The exec plugin's parent POM is not in the offline repository here, hence the plain {@code java}.)
 * The machine is shared: compare the sizes within one run, not figures across runs.
 */
public final class RunProgressBenchmark {

    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(Instant.parse("2026-11-29T00:00:00Z"));

    private RunProgressBenchmark() {
    }

    public static void main(String[] args) {
        List<Integer> sizes = new ArrayList<>();
        for (String size : System.getProperty("bench.sizes", "1000,10000").split(",")) {
            sizes.add(Integer.parseInt(size.trim()));
        }
        List<String> properties = new ArrayList<>(List.of("erasure.control-plane.scheduler-initial-delay=1h",
                "erasure.forward.reconcile-initial-delay=1h", "logging.level.root=WARN", "server.port=0"));
        LocalEngines.postgres().springProperties().forEach((name, value) -> properties.add(name + "=" + value));
        LocalEngines.kafka().springProperties().forEach((name, value) -> properties.add(name + "=" + value));
        LocalEngines.s3().springProperties().forEach((name, value) -> properties.add(name + "=" + value));
        // as arguments: they must win over application.yml, as the ITs' dynamic properties do
        String[] arguments = properties.stream().map(p -> "--" + p).toArray(String[]::new);
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ControlPlaneApplication.class)
                .run(arguments)) {
            RunProgress progress = context.getBean(RunProgress.class);
            RunStore runs = context.getBean(RunStore.class);
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            JsonMapper json = context.getBean(JsonMapper.class);
            // warm-up (JIT, prepared statements, pool), not printed
            measure(progress, deletingRun(runs, jdbc, json, 500), 500);
            System.out.printf(Locale.ROOT, "RunProgress: one BatchCompleted per task, one caller%n");
            for (int size : sizes) {
                print(size, measure(progress, deletingRun(runs, jdbc, json, size), size));
            }
            ForwardProgress forward = context.getBean(ForwardProgress.class);
            measureForward(forward, pendingRequest(jdbc, 500), 500);
            System.out.printf(Locale.ROOT, "ForwardProgress: one BatchCompleted per task of one target, one caller%n");
            for (int size : sizes) {
                print(size, measureForward(forward, pendingRequest(jdbc, size), size));
            }
        }
    }

    private record Result(Duration total, Duration lastThousand) {
    }

    private static void print(int size, Result result) {
        System.out.printf(Locale.ROOT, "%,7d batches: %7.2f s, %8.3f ms/event overall, %8.3f ms/event over the last 1,000%n",
                size, result.total().toNanos() / 1e9, result.total().toNanos() / 1e6 / size,
                result.lastThousand().toNanos() / 1e6 / Math.min(1_000, size));
    }

    private static Result measureForward(ForwardProgress progress, String requestId, int batches) {
        long start = System.nanoTime();
        long lastStart = start;
        for (int i = 0; i < batches; i++) {
            if (i == Math.max(0, batches - 1_000)) {
                lastStart = System.nanoTime();
            }
            BatchCompleted batch = new BatchCompleted(FORWARD_DATASET, "task-" + i, "b-" + i, requestId,
                    new BatchCounts(100, 0, 0, 0), ReadBackResult.CLEAN, 0, null, 0, null);
            progress.apply(EventEnvelope.of(batch, null, UUID.randomUUID(), Clock.systemUTC()));
        }
        long end = System.nanoTime();
        return new Result(Duration.ofNanos(end - start), Duration.ofNanos(end - lastStart));
    }

    private static final String FORWARD_DATASET = "bench-forward";

    /** A TOMBSTONED request with one key target expecting one key more than the benchmark reports. */
    private static String pendingRequest(JdbcTemplate jdbc, int tasks) {
        String requestId = "req-" + UUID.randomUUID();
        Timestamp now = Timestamp.from(Instant.now());
        jdbc.update("""
                        INSERT INTO deletion_requests (id, created_at, aggregate_type, aggregate_id, version, state, tombstoned_at,
                            published_at, event_id, origin_chain_id, child_ids, requested_by, updated_at)
                        VALUES (?, ?, 'bench', ?, 1, 'TOMBSTONED', ?, ?, ?, ?, '{}', 'bench', ?)""",
                requestId, now, requestId, now, now, UUID.randomUUID(), UUID.randomUUID(), now);
        jdbc.update("""
                        INSERT INTO forward_targets (request_id, dataset, event_id, key_set, identifier_source, action, keys,
                            task_ids, blocking, outcome, confirmed, expected_keys, updated_at)
                        VALUES (?, ?, ?, 'k', 'bench', 'DELETE', '[]', '[]', true, 'PENDING', false, ?, ?)""",
                requestId, FORWARD_DATASET, UUID.randomUUID(), tasks * 100 + 1, now);
        return requestId;
    }

    private static Result measure(RunProgress progress, String runId, int batches) {
        long start = System.nanoTime();
        long lastStart = start;
        for (int i = 0; i < batches; i++) {
            if (i == Math.max(0, batches - 1_000)) {
                lastStart = System.nanoTime();
            }
            BatchCompleted batch = new BatchCompleted(datasetOf(runId), "task-" + i, "b-" + i, null,
                    new BatchCounts(100, 1, 2, 0), ReadBackResult.CLEAN, 0, null, 0,
                    DeterministicId.sha256Hex(runId, Integer.toString(i)));
            progress.apply(EventEnvelope.of(batch, runId, UUID.randomUUID(), Clock.systemUTC()));
        }
        long end = System.nanoTime();
        return new Result(Duration.ofNanos(end - start), Duration.ofNanos(end - lastStart));
    }

    /** A DELETING run waiting for one task more than the benchmark reports, so it never completes. */
    private static String deletingRun(RunStore runs, JdbcTemplate jdbc, JsonMapper json, int tasks) {
        String runId = RunId.random().value();
        String name = "bench-" + runId.substring(runId.length() - 8).toLowerCase(Locale.ROOT);
        String source = name + "-src";
        DatasetSpec spec = DatasetSpec.builder().name(name).storeKind(StoreKind.CASSANDRA).connectionRef("cassandra-main")
                .namespace("shop").table("profiles").keyColumns(KeyColumns.partitionOnly("customer_id"))
                .identifierColumn("customer_id").identifierSource(source).conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP)).limits(DeletionLimits.fraction(0.05))
                .ownerTeam("bench").build();
        Timestamp now = Timestamp.from(Instant.now());
        jdbc.update("""
                        INSERT INTO datasets (name, owner_team, store_kind, spec, enabled, revision, registered_by, registered_at,
                                              updated_by, updated_at, next_run_at)
                        VALUES (?, 'bench', 'CASSANDRA', ?::jsonb, false, 1, 'bench', ?, 'bench', ?, null)""",
                name, json.writeValueAsString(spec), now, now);
        IdentifierSource identifiers = new IdentifierSource(source, StoreKind.POSTGRES, "pg-main", "public", "customers",
                "customer_id", "deleted_at", S3Layout.defaultBackupLocation(source, BackupFormat.JSONL_GZIP), Duration.ofDays(3));
        runs.insert(runId, spec, 1, identifiers, 1, false, "bench");
        jdbc.update("""
                        UPDATE runs SET state = 'DELETING', cutoff_micros = ?, final_count = ?, task_count = ?,
                                        steps = steps || jsonb_build_object('AUTHORIZED', ?::text, 'DELETING', ?::text)
                        WHERE id = ?""",
                CUTOFF.micros(), tasks * 100L, tasks + 1, now.toInstant().toString(), now.toInstant().toString(), runId);
        return runId;
    }

    private static String datasetOf(String runId) {
        return "bench-" + runId.substring(runId.length() - 8).toLowerCase(Locale.ROOT);
    }
}
