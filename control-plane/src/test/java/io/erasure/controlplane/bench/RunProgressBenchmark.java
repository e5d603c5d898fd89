package io.erasure.controlplane.bench;

import com.sun.management.OperatingSystemMXBean;
import io.erasure.controlplane.ControlPlaneApplication;
import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.controlplane.StatementCounter;
import io.erasure.controlplane.forward.ForwardProgress;
import io.erasure.controlplane.run.RunStore;
import io.erasure.infra.LocalEngines;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
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
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Proxy;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * What one {@code BatchCompleted} costs the control plane as a run's batch count grows, through the real path: for
 * each size N in {@code bench.sizes} (default 200, 2,000 and 20,000) it starts a DELETING run of N + 1 tasks, sends N
 * batch results to {@code erasure.run.events} and waits until the run's listener has counted them all; it prints per
 * event the wall time, the CPU time of the listener's threads and of the whole JVM, the SQL statements the listener
 * ran, and what PostgreSQL read and wrote per table ({@code pg_stat_user_tables}: scans, rows read, rows written).
 * Before the sizes it measures the context idle for {@code bench.idle-seconds} (default 20): what the control plane
 * spends per second with no event at all (timers, consumers), split by thread. Then the batches of one forward-deletion
 * target through {@link ForwardProgress#apply}. Against the local PostgreSQL, Kafka and S3. Not a test: it asserts
 * nothing and never runs in {@code verify}.
 *
 * <pre>
 * ./mvnw -B -q -o -f control-plane/pom.xml test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=/tmp/cp-control-plane.txt -Dmdep.includeScope=test
 * java -cp control-plane/target/test-classes:control-plane/target/classes:$(cat /tmp/cp-control-plane.txt) \
 *   [-Dbench.sizes=200,2000,20000] [-Dbench.idle-seconds=20] io.erasure.controlplane.bench.RunProgressBenchmark
 * </pre>
 * (The exec plugin's parent POM is not in the offline repository here, hence the plain {@code java}.)
 * The machine is shared: compare the sizes within one run, not figures across runs.
 */
public final class RunProgressBenchmark {

    private static final String INSERT_REQUEST = """
            INSERT INTO deletion_requests (id, created_at, aggregate_type, aggregate_id, version, state,
                tombstoned_at, published_at, event_id, origin_chain_id, child_ids, requested_by, updated_at)
            VALUES (?, ?, 'bench', ?, 1, 'TOMBSTONED', ?, ?, ?, ?, '{}', 'bench', ?)""";
    private static final String INSERT_TARGET = """
            INSERT INTO forward_targets (request_id, dataset, event_id, key_set, identifier_source, action,
                keys, task_ids, blocking, outcome, confirmed, expected_keys, updated_at)
            VALUES (?, ?, ?, 'k', 'bench', 'DELETE', '[]', '[]', true, 'PENDING', false, ?, ?)""";
    private static final String INSERT_DATASET = """
            INSERT INTO datasets (name, owner_team, store_kind, spec, enabled, revision, registered_by,
                                  registered_at, updated_by, updated_at, next_run_at)
            VALUES (?, 'bench', 'CASSANDRA', ?::jsonb, false, 1, 'bench', ?, 'bench', ?, null)""";

    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(Instant.parse("2026-11-29T00:00:00Z"));

    private RunProgressBenchmark() {}

    public static void main(String[] args) throws InterruptedException {
        List<Integer> sizes = new ArrayList<>();
        for (String size : System.getProperty("bench.sizes", "200,2000,20000").split(",")) {
            sizes.add(Integer.parseInt(size.trim()));
        }
        int idleSeconds = Integer.getInteger("bench.idle-seconds", 20);
        List<String> properties = new ArrayList<>(List.of(
                "erasure.control-plane.scheduler-initial-delay=1h",
                "erasure.forward.reconcile-initial-delay=1h",
                "logging.level.root=WARN",
                "server.port=0"));
        LocalEngines.postgres().springProperties().forEach((name, value) -> properties.add(name + "=" + value));
        LocalEngines.kafka().springProperties().forEach((name, value) -> properties.add(name + "=" + value));
        LocalEngines.s3().springProperties().forEach((name, value) -> properties.add(name + "=" + value));
        // as arguments: they must win over application.yml, as the ITs' dynamic properties do
        String[] arguments = properties.stream().map(p -> "--" + p).toArray(String[]::new);
        CountingDataSources statements = new CountingDataSources();
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ControlPlaneApplication.class)
                .profiles("local") // the LOCAL ONLY keys and users, as ./erasure-local runs it
                .initializers(c -> c.getBeanFactory().addBeanPostProcessor(statements))
                .run(arguments)) {
            RunStore runs = context.getBean(RunStore.class);
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            JsonMapper json = context.getBean(JsonMapper.class);
            @SuppressWarnings("unchecked")
            KafkaTemplate<String, String> kafka = context.getBean(KafkaTemplate.class);
            Through through = new Through(runs, jdbc, json, kafka, statements);
            // warm-up (JIT, prepared statements, pool, the listener's partition assignment), not printed
            through.measure(500);
            idle(idleSeconds, statements);
            System.out.printf(
                    Locale.ROOT, "%nRunProgress: N BatchCompleted of one run through Kafka and RunEventsListener%n");
            String largest = null;
            for (int size : sizes) {
                Through.Result result = through.measure(size);
                through.print(size, result);
                largest = result.runId();
            }
            explain(jdbc, largest);
            ForwardProgress forward = context.getBean(ForwardProgress.class);
            measureForward(forward, pendingRequest(jdbc, 500), 500);
            System.out.printf(
                    Locale.ROOT, "%nForwardProgress: one BatchCompleted per task of one target, one caller%n");
            for (int size : sizes) {
                Duration total = measureForward(forward, pendingRequest(jdbc, size), size);
                System.out.printf(Locale.ROOT, "%,7d batches: %8.3f ms/event%n", size, total.toNanos() / 1e6 / size);
            }
        }
    }

    /** CPU and statements per second with nothing to do, by thread kind. */
    private static void idle(int seconds, CountingDataSources statements) throws InterruptedException {
        Map<String, Long> cpuBefore = cpuByKind();
        long processBefore = processCpuNanos();
        Map<String, Long> statementsBefore = statements.byKind();
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        double wall = (System.nanoTime() - start) / 1e9;
        Map<String, Long> cpu = minus(cpuByKind(), cpuBefore);
        Map<String, Long> ran = minus(statements.byKind(), statementsBefore);
        System.out.printf(
                Locale.ROOT,
                "%nIdle for %.0f s: whole JVM %.1f ms CPU per second%n",
                wall,
                (processCpuNanos() - processBefore) / 1e6 / wall);
        cpu.forEach((kind, nanos) -> System.out.printf(
                Locale.ROOT,
                "  %-22s %7.2f ms CPU/s %7.2f statements/s%n",
                kind,
                nanos / 1e6 / wall,
                ran.getOrDefault(kind, 0L) / wall));
    }

    /**
     * The plans of the reads on an event's path and of the receipt's, against the run of the largest size: each must
     * find its rows by the run's key, not scan the run's batches.
     */
    private static void explain(JdbcTemplate jdbc, String runId) {
        Map<String, String> reads = new LinkedHashMap<>();
        reads.put("the run, locked", "SELECT r.* FROM runs r WHERE r.id = '%s' FOR UPDATE");
        reads.put("running totals", "SELECT * FROM run_batch_totals WHERE run_id = '%s' ORDER BY dataset");
        reads.put(
                "failed batches",
                "SELECT batch_id FROM run_batch_failures WHERE run_id = '%s' ORDER BY received_at, batch_id");
        reads.put("a batch counted once", "SELECT 1 FROM run_batches WHERE run_id = '%s' AND batch_id = 'b-17'");
        reads.put(
                "receipt: batch digests",
                "SELECT keys_digest FROM run_batches WHERE run_id = '%s'" + " AND keys_digest IS NOT NULL ORDER BY 1");
        System.out.printf(
                Locale.ROOT,
                "%nPlans against the run of %s batches%n",
                jdbc.queryForObject("SELECT batches_completed FROM runs WHERE id = ?", Long.class, runId));
        reads.forEach((name, sql) -> {
            System.out.printf(Locale.ROOT, "  %s:%n", name);
            jdbc.queryForList("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) " + sql.formatted(runId), String.class)
                    .forEach(line -> System.out.println("    " + line));
        });
    }

    /** The listener path: events sent to Kafka, counted by the control plane's own consumer. */
    private record Through(
            RunStore runs,
            JdbcTemplate jdbc,
            JsonMapper json,
            KafkaTemplate<String, String> kafka,
            CountingDataSources statements) {

        record Result(
                String runId,
                int events,
                Duration wall,
                long listenerCpuNanos,
                long processCpuNanos,
                long listenerStatements,
                Map<String, TableStats> tables) {}

        Result measure(int batches) throws InterruptedException {
            String runId = deletingRun(runs, jdbc, json, batches);
            String dataset = datasetOf(runId);
            List<String> messages = new ArrayList<>(batches);
            for (int i = 0; i < batches; i++) {
                BatchCompleted batch = new BatchCompleted(
                        dataset,
                        "task-" + i,
                        "b-" + i,
                        null,
                        new BatchCounts(100, 1, 2, 0),
                        ReadBackResult.CLEAN,
                        0,
                        null,
                        0,
                        DeterministicId.sha256Hex(runId, Integer.toString(i)));
                // sealed as deletion-service seals them (before the clock starts): the listener checks each seal
                messages.add(json.writeValueAsString(ControlPlaneTestSupport.sealed(
                        EventEnvelope.of(batch, runId, UUID.randomUUID(), Clock.systemUTC()))));
            }
            Map<String, TableStats> tablesBefore = TableStats.read(jdbc);
            long listenerCpu = cpuByKind().getOrDefault(LISTENER, 0L);
            long processCpu = processCpuNanos();
            long listenerStatements = statements.byKind().getOrDefault(LISTENER, 0L);
            long start = System.nanoTime();
            messages.forEach(message -> kafka.send(Topics.RUN_EVENTS, runId, message));
            kafka.flush();
            while (counted(runId) < batches) {
                Thread.sleep(20);
            }
            Duration wall = Duration.ofNanos(System.nanoTime() - start);
            long listenerCpuAfter = cpuByKind().getOrDefault(LISTENER, 0L);
            long processCpuAfter = processCpuNanos();
            long listenerStatementsAfter = statements.byKind().getOrDefault(LISTENER, 0L);
            Thread.sleep(1_500); // the backends report their table statistics at most every 500 ms
            Map<String, TableStats> tables = TableStats.minus(TableStats.read(jdbc), tablesBefore);
            return new Result(
                    runId,
                    batches,
                    wall,
                    listenerCpuAfter - listenerCpu,
                    processCpuAfter - processCpu,
                    listenerStatementsAfter - listenerStatements,
                    tables);
        }

        private long counted(String runId) {
            Long n = jdbc.queryForObject("SELECT batches_completed FROM runs WHERE id = ?", Long.class, runId);
            return n == null ? 0 : n;
        }

        void print(int size, Result result) {
            double n = result.events();
            System.out.printf(
                    Locale.ROOT,
                    "%,7d events: %6.1f s; per event %6.3f ms wall, %6.3f ms CPU in the listener,"
                            + " %6.3f ms CPU in the JVM, %5.2f statements%n",
                    size,
                    result.wall().toNanos() / 1e9,
                    result.wall().toNanos() / 1e6 / n,
                    result.listenerCpuNanos() / 1e6 / n,
                    result.processCpuNanos() / 1e6 / n,
                    result.listenerStatements() / n);
            result.tables().forEach((table, stats) -> {
                if (!stats.isZero()) {
                    System.out.printf(
                            Locale.ROOT,
                            "          %-22s per event: %5.2f seq scans (%8.1f rows read),"
                                    + " %5.2f index scans (%6.2f rows fetched), %5.2f rows written%n",
                            table,
                            stats.seqScans() / n,
                            stats.seqRowsRead() / n,
                            stats.indexScans() / n,
                            stats.indexRowsFetched() / n,
                            stats.rowsWritten() / n);
                }
            });
        }
    }

    /** Cumulative reads and writes of one table, from {@code pg_stat_user_tables}. */
    private record TableStats(
            long seqScans, long seqRowsRead, long indexScans, long indexRowsFetched, long rowsWritten) {

        static Map<String, TableStats> read(JdbcTemplate jdbc) {
            jdbc.execute("SELECT pg_stat_clear_snapshot()");
            Map<String, TableStats> tables = new TreeMap<>();
            jdbc.query("""
                    SELECT relname, seq_scan, seq_tup_read, coalesce(idx_scan, 0) AS idx_scan,
                           coalesce(idx_tup_fetch, 0) AS idx_tup_fetch, n_tup_ins + n_tup_upd + n_tup_del AS written
                    FROM pg_stat_user_tables WHERE schemaname = 'control_plane'""", rs -> {
                tables.put(
                        rs.getString(1),
                        new TableStats(rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6)));
            });
            return tables;
        }

        static Map<String, TableStats> minus(Map<String, TableStats> after, Map<String, TableStats> before) {
            Map<String, TableStats> delta = new TreeMap<>();
            after.forEach((table, a) -> {
                TableStats b = before.getOrDefault(table, new TableStats(0, 0, 0, 0, 0));
                delta.put(
                        table,
                        new TableStats(
                                a.seqScans - b.seqScans,
                                a.seqRowsRead - b.seqRowsRead,
                                a.indexScans - b.indexScans,
                                a.indexRowsFetched - b.indexRowsFetched,
                                a.rowsWritten - b.rowsWritten));
            });
            return delta;
        }

        boolean isZero() {
            return seqScans == 0 && indexScans == 0 && rowsWritten == 0;
        }
    }

    private static final String LISTENER = "kafka listeners";

    /** What a thread is there for, from its name: the Kafka listeners, the timers, the web server, the rest. */
    private static String kind(String threadName) {
        if (threadName.contains("-C-")) {
            return LISTENER;
        }
        if (threadName.startsWith("scheduling-")) {
            return "scheduled tasks";
        }
        if (threadName.startsWith("http-nio")) {
            return "web server";
        }
        if (threadName.startsWith("kafka-producer")
                || threadName.startsWith("kafka-coordinator")
                || threadName.startsWith("kafka-admin")) {
            return "kafka client threads";
        }
        if (threadName.equals("main")) {
            return "benchmark (main)";
        }
        return "other";
    }

    private static Map<String, Long> cpuByKind() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> cpu = new TreeMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null) {
                long nanos = threads.getThreadCpuTime(info.getThreadId());
                if (nanos > 0) {
                    cpu.merge(kind(info.getThreadName()), nanos, Long::sum);
                }
            }
        }
        return cpu;
    }

    private static long processCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> delta = new TreeMap<>();
        after.forEach((kind, value) -> delta.put(kind, value - before.getOrDefault(kind, 0L)));
        return delta;
    }

    /** Counts the SQL statements the context's connections execute, by the kind of thread that runs them. */
    private static final class CountingDataSources implements BeanPostProcessor {

        private final StatementCounter counter = new StatementCounter(thread -> kind(thread.getName()));

        Map<String, Long> byKind() {
            return counter.byKey();
        }

        @Override
        public Object postProcessAfterInitialization(Object bean, String beanName) {
            return bean instanceof DataSource dataSource && !Proxy.isProxyClass(bean.getClass())
                    ? counter.wrap(dataSource)
                    : bean;
        }
    }

    private static Duration measureForward(ForwardProgress progress, String requestId, int batches) {
        long start = System.nanoTime();
        for (int i = 0; i < batches; i++) {
            BatchCompleted batch = new BatchCompleted(
                    FORWARD_DATASET,
                    "task-" + i,
                    "b-" + i,
                    requestId,
                    new BatchCounts(100, 0, 0, 0),
                    ReadBackResult.CLEAN,
                    0,
                    null,
                    0,
                    null);
            progress.apply(ControlPlaneTestSupport.sealed(
                    EventEnvelope.of(batch, null, UUID.randomUUID(), Clock.systemUTC())));
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static final String FORWARD_DATASET = "bench-forward";

    /** A TOMBSTONED request with one key target expecting one key more than the benchmark reports. */
    private static String pendingRequest(JdbcTemplate jdbc, int tasks) {
        String requestId = "req-" + UUID.randomUUID();
        Timestamp now = Timestamp.from(Instant.now());
        jdbc.update(INSERT_REQUEST, requestId, now, requestId, now, now, UUID.randomUUID(), UUID.randomUUID(), now);
        jdbc.update(INSERT_TARGET, requestId, FORWARD_DATASET, UUID.randomUUID(), tasks * 100 + 1, now);
        return requestId;
    }

    /** A DELETING run waiting for one task more than the benchmark reports, so it never completes. */
    private static String deletingRun(RunStore runs, JdbcTemplate jdbc, JsonMapper json, int tasks) {
        String runId = RunId.random().value();
        String name = datasetOf(runId);
        String source = name + "-src";
        DatasetSpec spec = DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cassandra-main")
                .namespace("shop")
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("customer_id"))
                .identifierColumn("customer_id")
                .identifierSource(source)
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.05))
                .ownerTeam("bench")
                .build();
        Timestamp now = Timestamp.from(Instant.now());
        jdbc.update(INSERT_DATASET, name, json.writeValueAsString(spec), now, now);
        IdentifierSource identifiers = new IdentifierSource(
                source,
                StoreKind.POSTGRES,
                "pg-main",
                "public",
                "customers",
                "customer_id",
                "deleted_at",
                S3Layout.defaultBackupLocation(source, BackupFormat.JSONL_GZIP),
                Duration.ofDays(3));
        runs.insert(runId, spec, 1, identifiers, 1, false, "bench");
        jdbc.update(
                """
                        UPDATE runs SET state = 'DELETING', cutoff_micros = ?, final_count = ?, task_count = ?,
                                        steps = steps || jsonb_build_object('AUTHORIZED', ?::text, 'DELETING', ?::text)
                        WHERE id = ?""",
                CUTOFF.micros(),
                tasks * 100L,
                tasks + 1,
                now.toInstant().toString(),
                now.toInstant().toString(),
                runId);
        return runId;
    }

    private static String datasetOf(String runId) {
        return "bench-" + runId.substring(runId.length() - 8).toLowerCase(Locale.ROOT);
    }
}
