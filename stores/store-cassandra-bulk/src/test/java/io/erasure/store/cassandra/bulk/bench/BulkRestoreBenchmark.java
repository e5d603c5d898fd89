package io.erasure.store.cassandra.bulk.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.cassandra.CassandraStoreAdapter;
import io.erasure.store.cassandra.bulk.BulkFixtures;
import io.erasure.store.cassandra.bulk.BulkRestorer;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Restored rows per second on the local node: online ({@code adapter.restore} in batches of
 * {@link CassandraStoreAdapter#MAX_BATCH}) versus bulk ({@link BulkRestorer}: SSTables written in a child
 * JVM, imported over JMX, read back). Both include the live-state check before writing; the bulk figure
 * also includes the child JVM's start and the read-back. Not a test: run it by hand.
 *
 * <pre>
 * ./mvnw -B -q -o -f stores/store-cassandra-bulk/pom.xml test-compile org.codehaus.mojo:exec-maven-plugin:3.5.0:java \
 *   -Dexec.mainClass=io.erasure.store.cassandra.bulk.bench.BulkRestoreBenchmark -Dexec.classpathScope=test \
 *   -Dexec.args=50000
 * </pre>
 */
public final class BulkRestoreBenchmark {

    private static final String KEYSPACE = "bulk_bench";

    private BulkRestoreBenchmark() {}

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        long now = CutoffTimestamp.toMicros(Instant.now());
        CutoffTimestamp cutoff = new CutoffTimestamp(now - 1_000_000);
        try (CqlSession direct = BulkFixtures.directSession();
                CassandraStoreAdapter adapter = BulkFixtures.openAdapter()) {
            BulkFixtures.createKeyspace(direct, KEYSPACE);
            BulkRestorer bulk = BulkFixtures.bulkRestorer(adapter, Clock.systemUTC());
            double online = run("online", direct, adapter, rows, cutoff, (spec, records) -> {
                List<RestoreOutcome.RecordOutcome> all = new ArrayList<>();
                for (int from = 0; from < records.size(); from += CassandraStoreAdapter.MAX_BATCH) {
                    List<DeletionRecord> batch =
                            records.subList(from, Math.min(records.size(), from + CassandraStoreAdapter.MAX_BATCH));
                    all.addAll(adapter.restore(spec, batch).records());
                }
                return new RestoreOutcome(all);
            });
            double bulkRate = run("bulk", direct, adapter, rows, cutoff, bulk::restore);
            System.out.printf(
                    "%,d rows: online %,.0f rows/s, bulk %,.0f rows/s (x%.1f)%n",
                    rows, online, bulkRate, bulkRate / online);
        }
        System.exit(0);
    }

    private interface Restore {
        RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records);
    }

    /** Fills a fresh table, deletes it at the cut-off, and times restoring every row. */
    private static double run(
            String name,
            CqlSession direct,
            CassandraStoreAdapter adapter,
            int rows,
            CutoffTimestamp cutoff,
            Restore restore) {
        String table = "profiles_" + name;
        direct.execute("DROP TABLE IF EXISTS " + KEYSPACE + "." + table);
        direct.execute("CREATE TABLE " + KEYSPACE + "." + table
                + " (id bigint PRIMARY KEY, name text, email text, score int)");
        DatasetSpec spec = BulkFixtures.spec(KEYSPACE, table, KeyColumns.partitionOnly("id"), "id");
        adapter.checkDataset(spec);
        long writeTime = cutoff.micros() - 1_000_000;
        Instant deletedAt = Instant.now();
        List<DeletionRecord> records = new ArrayList<>(rows);
        for (int from = 0; from < rows; from += DeletionTask.MAX_KEYS) {
            List<Map<String, Object>> keys = new ArrayList<>();
            for (long id = from; id < Math.min(rows, from + DeletionTask.MAX_KEYS); id++) {
                keys.add(Map.of("id", id));
            }
            DeletionTask task = DeletionTask.forRun(RunId.of("run-bench"), spec, keys, cutoff);
            for (Map<String, Object> key : keys) {
                long id = (Long) key.get("id");
                records.add(DeletionRecord.of(
                        task,
                        "batch-1",
                        key,
                        List.of(
                                ColumnValue.of("id", id),
                                new ColumnValue("name", "name-" + id, writeTime, 86_400),
                                new ColumnValue("email", "user" + id + "@example.com", writeTime, 86_400),
                                new ColumnValue("score", (int) (id % 1000), writeTime, null)),
                        deletedAt));
            }
        }
        // the table is empty, as after the delete: nothing to delete first, every record restores
        long started = System.nanoTime();
        RestoreOutcome outcome = restore.restore(spec, records);
        double seconds = (System.nanoTime() - started) / 1e9;
        long restored = outcome.count(Status.RESTORED);
        if (restored != rows) {
            throw new IllegalStateException(name + ": restored " + restored + " of " + rows + ": "
                    + outcome.records().stream()
                            .filter(r -> r.status() != Status.RESTORED)
                            .findFirst()
                            .orElseThrow());
        }
        double rate = rows / seconds;
        System.out.printf("%-6s %,d rows restored in %.1f s: %,.0f rows/s%n", name, rows, seconds, rate);
        return rate;
    }
}
