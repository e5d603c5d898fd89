package io.erasure.recovery.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.deletionlog.client.DatasetKeys;
import io.erasure.deletionlog.client.DeletionLog;
import io.erasure.deletionlog.client.FrozenSpec;
import io.erasure.deletionlog.client.HeaderPage;
import io.erasure.deletionlog.client.LogReader;
import io.erasure.deletionlog.client.LogSchema;
import io.erasure.deletionlog.client.PayloadCipher;
import io.erasure.infra.LocalEngines;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.recovery.RecoveryScope;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.recovery.RecoveryApplication;
import io.erasure.recovery.restore.BulkRestores;
import io.erasure.recovery.restore.FrozenSpecGuard;
import io.erasure.recovery.restore.RecoveryItem;
import io.erasure.recovery.restore.RecoveryRunner;
import io.erasure.recovery.restore.RecoveryStore;
import io.erasure.recovery.restore.RestoreThrottle;
import io.erasure.recovery.restore.RetainedRows;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.support.stores.StoreAdapterPool;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * A recovery by run of {@code bench.records} records (default 20,000) of a PostgreSQL table, restored online through
 * {@link RecoveryRunner} with the service's page and batch sizes and an unbinding throttle, against the local
 * PostgreSQL and Cassandra (the log): records/s over {@code bench.runs} runs (default 3), then one more run that
 * samples the live heap (after a full GC) each time a batch's outcomes are stored, and prints its peak over the heap
 * before the run: what the recovery holds. Then a recovery by keys of {@code bench.keys} keys (default 5,000). Not a
 * test: it asserts nothing and never runs in {@code verify}.
 *
 * <pre>
 * ./mvnw -B -q -o -pl recovery-service test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
 * cd recovery-service && java -Xmx1g -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" \
 *   [-Dbench.records=20000 -Dbench.runs=3 -Dbench.keys=5000] io.erasure.recovery.bench.RecoveryPagingBenchmark
 * </pre>
 * The machine is shared: compare figures within one run, or runs close together.
 */
public final class RecoveryPagingBenchmark {

    private static final String CONNECTION = "pg-bench";
    private static final long WRITTEN = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(WRITTEN + 1_000_000);
    private static final String FILLER = "x".repeat(200);

    private RecoveryPagingBenchmark() {}

    public static void main(String[] args) {
        int records = Integer.getInteger("bench.records", 20_000);
        int runs = Integer.getInteger("bench.runs", 3);
        int keyCount = Integer.getInteger("bench.keys", 5_000);
        List<String> properties = new ArrayList<>(
                List.of("logging.level.root=WARN", "server.port=0", "spring.cassandra.request.timeout=30s"));
        LocalEngines.postgres().springProperties().forEach((name, value) -> properties.add(name + "=" + value));
        LocalEngines.kafka().springProperties().forEach((name, value) -> properties.add(name + "=" + value));
        LocalEngines.s3().springProperties().forEach((name, value) -> properties.add(name + "=" + value));
        LocalEngines.cassandra().springProperties().forEach((name, value) -> properties.add(name + "=" + value));
        LocalEngines.postgres()
                .storeConnectionProperties(CONNECTION)
                .forEach((name, value) -> properties.add(name + "=" + value));
        String[] arguments = properties.stream().map(p -> "--" + p).toArray(String[]::new);
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(RecoveryApplication.class)
                .profiles("local")
                .run(arguments)) { // the LOCAL ONLY keys, as ./erasure-local runs it
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            JsonMapper json = context.getBean(JsonMapper.class);
            CqlSession session = context.getBean(CqlSession.class);
            StoreAdapterPool adapters = context.getBean(StoreAdapterPool.class);
            String masterKey = context.getEnvironment().getProperty("erasure.deletion-log.master-key");
            session.execute("CREATE KEYSPACE IF NOT EXISTS " + LogSchema.KEYSPACE
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            LogSchema.create(session, Duration.ofDays(30));
            DeletionLog log = DeletionLog.open(session, masterKey, Duration.ofDays(30), json, Clock.systemUTC());

            DatasetSpec spec = table(jdbc, "bench_paged_" + System.nanoTime() % 100_000);
            RunId run = RunId.of("bench-run-" + UUID.randomUUID());
            long started = System.nanoTime();
            logged(jdbc, adapters.checkedAdapter(spec), log, json, spec, run, records);
            System.out.printf(
                    Locale.ROOT, "%,d records logged in %.1f s%n", records, (System.nanoTime() - started) / 1e9);

            Heap heap = new Heap();
            RecoveryStore store = new RecoveryStore(jdbc, json) {
                @Override
                public void recorded(UUID id, List<RecoveryItem> items) {
                    heap.sample();
                    super.recorded(id, items);
                }
            };
            Clock clock = Clock.systemUTC();
            LogReader reader =
                    new LogReader(session, new DatasetKeys(session, PayloadCipher.masterKey(masterKey), clock), json);
            RecoveryRunner runner = new RecoveryRunner(
                    () -> reader,
                    adapters,
                    store,
                    new RestoreThrottle(1_000_000),
                    context.getBean(BulkRestores.class),
                    context.getBean(RetainedRows.class),
                    clock,
                    new RecoveryRunner.Sizes(500, 100),
                    context.getBean(FrozenSpecGuard.class),
                    json);

            // what the census before a recovery by run reads: every record's header, no payload
            for (int i = 0; i < 3; i++) {
                long headersStart = System.nanoTime();
                long headers = 0;
                String cursor = null;
                do {
                    HeaderPage page = reader.runHeaders(run.value(), 500, cursor);
                    headers += page.headers().size();
                    cursor = page.nextCursor();
                } while (cursor != null);
                System.out.printf(
                        Locale.ROOT,
                        "headers of the run: %,d in %.2f s%n",
                        headers,
                        (System.nanoTime() - headersStart) / 1e9);
            }
            System.out.printf(Locale.ROOT, "recovery by run, %,d records, pages of 500, batches of 100:%n", records);
            List<Double> rates = new ArrayList<>();
            for (int i = 0; i <= runs; i++) {
                jdbc.execute("TRUNCATE recovery_bench." + spec.table());
                long start = System.nanoTime();
                RecoveryStore.RequestView done = recover(store, runner, new RecoveryScope.ByRun(run), spec);
                double seconds = (System.nanoTime() - start) / 1e9;
                if (i == 0) {
                    continue; // warm-up: JIT, prepared statements, pools
                }
                rates.add(done.restored() / seconds);
                System.out.printf(
                        Locale.ROOT,
                        "  run %d: %,d restored in %.2f s, %,.0f records/s%n",
                        i,
                        done.restored(),
                        seconds,
                        done.restored() / seconds);
            }
            System.out.printf(
                    Locale.ROOT,
                    "  median %,.0f records/s%n",
                    rates.stream().sorted().toList().get(rates.size() / 2));

            jdbc.execute("TRUNCATE recovery_bench." + spec.table());
            heap.start();
            RecoveryStore.RequestView sampled = recover(store, runner, new RecoveryScope.ByRun(run), spec);
            heap.stop();
            System.out.printf(
                    Locale.ROOT,
                    "  live heap before %.1f MiB, peak during the recovery %.1f MiB (+%.1f MiB),"
                            + " %d samples, %,d restored%n",
                    heap.before / 1048576.0,
                    heap.peak.get() / 1048576.0,
                    (heap.peak.get() - heap.before) / 1048576.0,
                    heap.samples.get(),
                    sampled.restored());

            jdbc.execute("TRUNCATE recovery_bench." + spec.table());
            List<Map<String, Object>> keys = LongStream.rangeClosed(1, Math.min(keyCount, records))
                    .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                    .toList();
            // the log reads alone: one key at a time (as before), then pages of 500 keys in multi-key statements
            for (int i = 0; i < 2; i++) {
                long alone = System.nanoTime();
                keys.forEach(key -> reader.byKey(spec.name(), key, true));
                double aloneSeconds = (System.nanoTime() - alone) / 1e9;
                long together = System.nanoTime();
                for (int from = 0; from < keys.size(); from += 500) {
                    reader.byKeys(spec.name(), keys.subList(from, Math.min(keys.size(), from + 500)), true);
                }
                double togetherSeconds = (System.nanoTime() - together) / 1e9;
                System.out.printf(
                        Locale.ROOT,
                        "log reads of %,d keys: one by one %.2f s (%,.0f keys/s), %d at a time in"
                                + " statements of %d keys %.2f s (%,.0f keys/s)%n",
                        keys.size(),
                        aloneSeconds,
                        keys.size() / aloneSeconds,
                        500,
                        LogReader.KEYS_PER_QUERY,
                        togetherSeconds,
                        keys.size() / togetherSeconds);
            }
            long start = System.nanoTime();
            RecoveryStore.RequestView byKeys =
                    recover(store, runner, new RecoveryScope.ByKeys(spec.name(), keys), spec);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    "recovery by keys, %,d keys: %,d restored in %.2f s, %,.0f keys/s%n",
                    keys.size(),
                    byKeys.restored(),
                    seconds,
                    keys.size() / seconds);
        }
    }

    /** The live heap (after a full GC) at each sample, while started. */
    private static final class Heap {
        private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        private final AtomicLong peak = new AtomicLong();
        private final AtomicLong samples = new AtomicLong();
        private volatile boolean sampling;
        private long before;

        void start() {
            before = live();
            peak.set(before);
            sampling = true;
        }

        void stop() {
            sampling = false;
        }

        void sample() {
            if (sampling) {
                samples.incrementAndGet();
                peak.accumulateAndGet(live(), Math::max);
            }
        }

        private long live() {
            System.gc();
            return memory.getHeapMemoryUsage().getUsed();
        }
    }

    private static RecoveryStore.RequestView recover(
            RecoveryStore store, RecoveryRunner runner, RecoveryScope scope, DatasetSpec spec) {
        UUID id = store.create("bench", "benchmark", scope, spec.name(), spec, false, Instant.now());
        runner.run(id, false);
        RecoveryStore.RequestView view = store.find(id).orElseThrow();
        if (view.status() != RecoveryStore.Status.COMPLETED) {
            throw new IllegalStateException("recovery " + id + " did not complete: " + view.failure());
        }
        return view;
    }

    private static DatasetSpec table(JdbcTemplate jdbc, String table) {
        jdbc.execute("CREATE SCHEMA IF NOT EXISTS recovery_bench");
        jdbc.execute(
                "CREATE TABLE recovery_bench." + table + " (id bigint PRIMARY KEY, name text, email text, address text,"
                        + " balance numeric(12,2), tags text[], updated_at timestamptz NOT NULL)");
        return DatasetSpec.builder()
                .name(table.replace('_', '-'))
                .storeKind(StoreKind.POSTGRES)
                .connectionRef(CONNECTION)
                .namespace("recovery_bench")
                .table(table)
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(new BackupLocation("backups/recovery-bench/", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("erasure-bench")
                .build();
    }

    /** {@code count} rows inserted, read through the adapter and logged as one run's deletion records, then deleted. */
    private static void logged(
            JdbcTemplate jdbc,
            StoreAdapter adapter,
            DeletionLog log,
            JsonMapper json,
            DatasetSpec spec,
            RunId run,
            int count) {
        OffsetDateTime updated = OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(WRITTEN), ZoneOffset.UTC);
        jdbc.update(
                "INSERT INTO recovery_bench." + spec.table() + " (id, name, email, address, balance, tags, updated_at)"
                        + " SELECT g, 'owner-' || g, 'user' || g || '@example.com', ? || g, g * 1.25, ARRAY['a',"
                        + " 'b' || g], ? FROM generate_series(1, ?) g",
                FILLER,
                updated,
                count);
        int batch = 1_000;
        Instant deletedAt = Instant.now();
        for (int from = 1; from <= count; from += batch) {
            List<Map<String, Object>> keys = LongStream.range(from, Math.min(count + 1, from + batch))
                    .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                    .toList();
            List<LiveRow> rows = adapter.readRows(spec, keys);
            DeletionTask task = DeletionTask.forRun(run, spec, keys, CUTOFF);
            log.specs().write(FrozenSpec.of(run.value(), spec, null, deletedAt, json));
            log.writer()
                    .write(rows.stream()
                            .map(row -> DeletionRecord.of(
                                    task, "batch-" + task.taskId(), row.key(), row.columns(), deletedAt))
                            .map(record -> json.readValue(json.writeValueAsString(record), DeletionRecord.class))
                            .toList());
        }
        jdbc.execute("TRUNCATE recovery_bench." + spec.table());
    }
}
