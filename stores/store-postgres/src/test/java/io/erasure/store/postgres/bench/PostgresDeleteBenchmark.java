package io.erasure.store.postgres.bench;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.postgres.TestDatabase;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.StoreAdapter;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Deletes per second of the PostgreSQL adapter at several batch sizes (keys per delete transaction), against the
 * local PostgreSQL 14 engine. For each batch size it loads {@code bench.rows} rows (default 100,000) into a fresh
 * table, then deletes them all through {@code planDelete} + {@code executeDelete} in calls of 1,000 keys (the
 * adapter's maxBatch), one caller thread, and prints the rate. Not a test: it asserts nothing and never runs in
 * {@code verify}.
 *
 * <p>Run from the repository root (after {@code ./mvnw -B -q -o -pl stores/store-postgres -am install -DskipTests}):
 * <pre>
 * ./mvnw -B -q -o -f stores/store-postgres/pom.xml test-compile exec:java
 * ./mvnw -B -q -o -f stores/store-postgres/pom.xml test-compile exec:java \
 *   -Dbench.rows=20000 -Dbench.batch-sizes=50,200,1000
 * </pre>
 * ({@code exec.mainClass} and {@code exec.classpathScope=test} are set in the module's pom.)
 */
public final class PostgresDeleteBenchmark {

    private static final int KEYS_PER_CALL = 1_000;

    private PostgresDeleteBenchmark() {}

    public static void main(String[] args) {
        int rows = Integer.getInteger("bench.rows", 100_000);
        List<Integer> batchSizes = new ArrayList<>();
        for (String size :
                System.getProperty("bench.batch-sizes", "50,200,1000").split(",")) {
            batchSizes.add(Integer.parseInt(size.trim()));
        }
        CutoffTimestamp cutoff = CutoffTimestamp.fromInstant(Instant.now());
        OffsetDateTime written = OffsetDateTime.now(ZoneOffset.UTC).minusHours(1);
        DatasetSpec spec = TestDatabase.spec("bench", "rows", "id", ConditionalColumn.timestamp("updated_at"));
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS bench");

        System.out.printf(
                Locale.ROOT,
                "PostgreSQL delete benchmark: %,d rows per run, %,d keys per call, one caller%n",
                rows,
                KEYS_PER_CALL);
        // warm-up (JIT, prepared statements), not printed
        run(spec, cutoff, written, Math.min(rows, 20_000), 200);
        for (int batchSize : batchSizes) {
            Result result = run(spec, cutoff, written, rows, batchSize);
            System.out.printf(
                    Locale.ROOT,
                    "batch-size %5d: %,9d rows deleted in %6.2f s = %,8.0f deletes/s (%,d transactions)%n",
                    batchSize,
                    result.deleted(),
                    result.seconds(),
                    result.deleted() / result.seconds(),
                    result.statements());
        }
        TestDatabase.execute("DROP TABLE IF EXISTS bench.rows");
    }

    private record Result(long deleted, long statements, double seconds) {}

    private static Result run(
            DatasetSpec spec, CutoffTimestamp cutoff, OffsetDateTime written, int rows, int batchSize) {
        {
            TestDatabase.execute("DROP TABLE IF EXISTS bench.rows");
            TestDatabase.execute(
                    "CREATE TABLE bench.rows (id bigint PRIMARY KEY, customer_id bigint NOT NULL, payload text,"
                            + " updated_at timestamptz NOT NULL)");
            TestDatabase.execute(
                    "INSERT INTO bench.rows SELECT i, i % 997, md5(i::text), ? FROM generate_series(1, ?) AS i",
                    written, rows);
            TestDatabase.execute("VACUUM ANALYZE bench.rows");
            try (StoreAdapter adapter = TestDatabase.open(Map.of("batch-size", Integer.toString(batchSize)))) {
                adapter.checkDataset(spec);
                long deleted = 0;
                long statements = 0;
                long start = System.nanoTime();
                for (long from = 1; from <= rows; from += KEYS_PER_CALL) {
                    List<Map<String, Object>> keys = new ArrayList<>(KEYS_PER_CALL);
                    for (long id = from; id < from + KEYS_PER_CALL && id <= rows; id++) {
                        keys.add(Map.of("id", id));
                    }
                    DeleteOutcome outcome =
                            adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "bench", cutoff, keys)));
                    deleted += outcome.deleted();
                    statements += outcome.statements();
                }
                return new Result(deleted, statements, (System.nanoTime() - start) / 1e9);
            }
        }
    }
}
