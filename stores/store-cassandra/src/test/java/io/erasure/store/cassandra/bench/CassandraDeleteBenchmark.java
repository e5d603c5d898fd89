package io.erasure.store.cassandra.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.cassandra.CassandraFixtures;
import io.erasure.store.cassandra.CassandraStoreAdapter;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

/**
 * Deletes per second through the Cassandra adapter (plan + execute, one deletion shard calling it
 * sequentially; "exec-only" counts the execute step alone), row deletes versus partition deletes, at
 * several batch sizes, against the local node of {@code LocalEngines}. Not a test: it asserts nothing
 * (beyond every row being gone) and is not run by {@code verify}.
 *
 * <p>The table is {@code PRIMARY KEY ((customer_id), order_id)} with {@code bench.rows-per-partition} orders
 * per customer. "partition" registers {@code customer_id} as the identifier, so each batch holds whole
 * partitions and every partition becomes one partition delete; "row" registers {@code order_id}, so the same
 * keys become row deletes (unlogged single-partition batches, up to the tombstone cap).
 *
 * <p>Run from the repository root (after {@code ./mvnw -B -q -o -pl stores/store-cassandra -am install -DskipTests}):
 * <pre>
 * ./mvnw -B -q -o -f stores/store-cassandra/pom.xml test-compile org.codehaus.mojo:exec-maven-plugin:3.5.0:java \
 *     -Dexec.mainClass=io.erasure.store.cassandra.bench.CassandraDeleteBenchmark -Dexec.classpathScope=test \
 *     -Dbench.rows=50000 -Dbench.batch-sizes=50,200,500 -Dbench.rows-per-partition=5 -Dbench.warmup-rows=5000
 * </pre>
 * Batch sizes should be multiples of the rows per partition, so that no partition is split across batches.
 */
public final class CassandraDeleteBenchmark {

    private static final String KEYSPACE = "bench";
    private static final long BEFORE = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(BEFORE + 1_000_000);

    private CassandraDeleteBenchmark() {}

    public static void main(String[] args) {
        int rows = Integer.getInteger("bench.rows", 50_000);
        int perPartition = Integer.getInteger("bench.rows-per-partition", 5);
        int[] batchSizes = Arrays.stream(
                        System.getProperty("bench.batch-sizes", "50,200,500").split(","))
                .mapToInt(s -> Integer.parseInt(s.trim()))
                .toArray();

        System.out.printf(
                "Cassandra delete benchmark: %d rows, %d rows per partition, node %s%n",
                rows, perPartition, CassandraFixtures.engine().contactPoint());
        System.out.printf(
                "%-10s %6s %8s %9s %11s %14s %12s %12s %11s%n",
                "mode", "batch", "rows", "seconds", "deletes/s", "exec-only/s", "plan ms/b", "exec ms/b", "tombstones");
        try (CqlSession direct = slowQuerySession();
                CassandraStoreAdapter adapter = CassandraFixtures.openAdapter(Map.of())) {
            CassandraFixtures.createKeyspace(direct, KEYSPACE, 1);
            int warmupRows = Integer.getInteger("bench.warmup-rows", 5_000);
            for (String mode : List.of("row", "partition")) {
                run(direct, adapter, mode, 100, warmupRows, perPartition, false); // JIT and node caches, not reported
            }
            for (int batchSize : batchSizes) {
                for (String mode : List.of("row", "partition")) {
                    run(direct, adapter, mode, batchSize, rows, perPartition, true);
                }
            }
        }
        System.exit(0); // the shared engine stops in the shutdown hook
    }

    private static void run(
            CqlSession direct,
            CassandraStoreAdapter adapter,
            String mode,
            int batchSize,
            int rows,
            int perPartition,
            boolean report) {
        String table = "orders_" + mode + "_" + batchSize;
        direct.execute("DROP TABLE IF EXISTS " + KEYSPACE + "." + table);
        direct.execute("CREATE TABLE " + KEYSPACE + "." + table
                + " (customer_id bigint, order_id int, payload text, PRIMARY KEY ((customer_id), order_id))");
        List<Map<String, Object>> keys = load(direct, table, rows, perPartition);
        DatasetSpec spec = CassandraFixtures.spec(
                KEYSPACE,
                table,
                KeyColumns.of(List.of("customer_id"), List.of("order_id")),
                mode.equals("partition") ? "customer_id" : "order_id");
        adapter.checkDataset(spec);

        long planNanos = 0;
        long execNanos = 0;
        int deleted = 0;
        int tombstones = 0;
        int batches = 0;
        for (int from = 0; from < keys.size(); from += batchSize) {
            DeleteBatch batch = new DeleteBatch(
                    spec, "bench-" + batches, CUTOFF, keys.subList(from, Math.min(keys.size(), from + batchSize)));
            long start = System.nanoTime();
            DeletePlan plan = adapter.planDelete(batch);
            long planned = System.nanoTime();
            DeleteOutcome outcome = adapter.executeDelete(plan);
            long executed = System.nanoTime();
            planNanos += planned - start;
            execNanos += executed - planned;
            deleted += outcome.deleted();
            tombstones += outcome.tombstones();
            batches++;
        }
        double seconds = (planNanos + execNanos) / 1e9;
        if (report) {
            System.out.printf(
                    "%-10s %6d %8d %9.2f %11.0f %14.0f %12.2f %12.2f %11d%n",
                    mode,
                    batchSize,
                    deleted,
                    seconds,
                    deleted / seconds,
                    deleted / (execNanos / 1e9),
                    planNanos / 1e6 / batches,
                    execNanos / 1e6 / batches,
                    tombstones);
        }
        long left = direct.execute("SELECT count(*) FROM " + KEYSPACE + "." + table)
                .one()
                .getLong(0);
        if (left != 0 || deleted != keys.size()) {
            throw new IllegalStateException(
                    table + ": " + left + " rows left, " + deleted + " of " + keys.size() + " deleted");
        }
        direct.execute("DROP TABLE " + KEYSPACE + "." + table);
    }

    /** Counting a table full of tombstones and dropping tables take longer than the driver's default 2 s. */
    private static CqlSession slowQuerySession() {
        var engine = CassandraFixtures.engine();
        return CqlSession.builder()
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofMinutes(2))
                        .build())
                .addContactPoint(new InetSocketAddress(engine.host(), engine.port()))
                .withLocalDatacenter(engine.localDatacenter())
                .build();
    }

    /** Writes the rows before the cut-off, 128 inserts in flight; returns their keys in partition order. */
    private static List<Map<String, Object>> load(CqlSession direct, String table, int rows, int perPartition) {
        PreparedStatement insert = direct.prepare("INSERT INTO " + KEYSPACE + "." + table
                + " (customer_id, order_id, payload) VALUES (?, ?, ?) USING TIMESTAMP " + BEFORE);
        List<Map<String, Object>> keys = new ArrayList<>(rows);
        List<CompletableFuture<?>> writes = new ArrayList<>(rows);
        Semaphore inFlight = new Semaphore(128);
        for (int i = 0; i < rows; i++) {
            long customer = i / perPartition;
            int order = i % perPartition;
            keys.add(Map.of("customer_id", customer, "order_id", order));
            inFlight.acquireUninterruptibly();
            writes.add(direct.executeAsync(insert.bind(customer, order, "order " + order + " of customer " + customer))
                    .toCompletableFuture()
                    .whenComplete((r, e) -> inFlight.release()));
        }
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
        return keys;
    }
}
