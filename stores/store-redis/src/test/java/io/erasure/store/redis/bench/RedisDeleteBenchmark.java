package io.erasure.store.redis.bench;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.redis.TestRedis;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.StoreAdapter;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Keys deleted per second by the Redis adapter at several pipeline sizes (keys per {@code UNLINK}), against the local
 * Redis engine. For each size, {@code bench.rounds} times (default 5), it writes {@code bench.keys} string keys
 * (default 50,000, ~100 bytes each) into an empty database, then deletes them all through {@code planDelete} +
 * {@code executeDelete} in calls of 1,000 keys (the adapter's maxBatch), one caller thread; it prints the median and
 * best rate (a shared machine makes single runs noisy). The time includes the plan's {@code EXISTS} per key.
 * Not a test: it asserts nothing and never runs in {@code verify}.
 *
 * <p>Run from the repository root (after {@code ./mvnw -B -q -o -pl stores/store-redis -am install -DskipTests}):
 * <pre>
 * ./mvnw -B -q -o -f stores/store-redis/pom.xml test-compile exec:java
 * ./mvnw -B -q -o -f stores/store-redis/pom.xml test-compile exec:java -Dbench.keys=20000 -Dbench.pipeline-sizes=50,500
 * </pre>
 * ({@code exec.mainClass} and {@code exec.classpathScope=test} are set in the module's pom.)
 */
public final class RedisDeleteBenchmark {

    private static final int DATABASE = 9;
    private static final int KEYS_PER_CALL = 1_000;

    private RedisDeleteBenchmark() {}

    public static void main(String[] args) {
        int keys = Integer.getInteger("bench.keys", 50_000);
        int rounds = Integer.getInteger("bench.rounds", 5);
        List<Integer> sizes = new ArrayList<>();
        for (String size :
                System.getProperty("bench.pipeline-sizes", "100,500,1000").split(",")) {
            sizes.add(Integer.parseInt(size.trim()));
        }
        DatasetSpec spec = TestRedis.spec("bench-profiles", "bench:profile:{customer_id}", "customer_id");
        CutoffTimestamp cutoff = CutoffTimestamp.fromInstant(Instant.now());

        System.out.printf(
                Locale.ROOT,
                "Redis delete benchmark: %,d keys per run, %,d keys per call, one caller%n",
                keys,
                KEYS_PER_CALL);
        // warm-up (JIT, connections), not printed
        run(spec, cutoff, keys, 500);
        for (int size : sizes) {
            List<Result> results = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                results.add(run(spec, cutoff, keys, size));
            }
            results.sort(Comparator.comparingDouble(Result::seconds));
            Result median = results.get(results.size() / 2);
            System.out.printf(
                    Locale.ROOT,
                    "pipeline-size %5d: median %,9.0f keys/s, best %,9.0f keys/s over %d runs"
                            + " (%,d keys in %.2f s, %,d UNLINK commands, planning %.2f s of it)%n",
                    size,
                    median.deleted() / median.seconds(),
                    results.get(0).deleted() / results.get(0).seconds(),
                    rounds,
                    median.deleted(),
                    median.seconds(),
                    median.commands(),
                    median.planSeconds());
        }
        TestRedis.redis(DATABASE).flushdb();
        TestRedis.shutdown();
    }

    private record Result(long deleted, long commands, double seconds, double planSeconds) {}

    private static Result run(DatasetSpec spec, CutoffTimestamp cutoff, int keys, int pipelineSize) {
        RedisCommands<String, String> redis = TestRedis.redis(DATABASE);
        redis.flushdb();
        String value = "x".repeat(100);
        for (int from = 1; from <= keys; from += 10_000) {
            Map<String, String> chunk = new HashMap<>();
            for (int id = from; id < from + 10_000 && id <= keys; id++) {
                chunk.put("bench:profile:" + id, value);
            }
            redis.mset(chunk);
        }
        try (StoreAdapter adapter = TestRedis.open(DATABASE, Map.of("pipeline-size", Integer.toString(pipelineSize)))) {
            adapter.checkDataset(spec);
            long deleted = 0;
            long commands = 0;
            long planNanos = 0;
            long start = System.nanoTime();
            for (int from = 1; from <= keys; from += KEYS_PER_CALL) {
                List<Map<String, Object>> batch = new ArrayList<>(KEYS_PER_CALL);
                for (int id = from; id < from + KEYS_PER_CALL && id <= keys; id++) {
                    batch.add(Map.of("customer_id", id));
                }
                long planStart = System.nanoTime();
                DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "bench", cutoff, batch));
                planNanos += System.nanoTime() - planStart;
                DeleteOutcome outcome = adapter.executeDelete(plan);
                deleted += outcome.deleted();
                commands += outcome.statements();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (redis.dbsize() != 0) {
                throw new IllegalStateException(
                        redis.dbsize() + " keys left after the run at pipeline-size " + pipelineSize);
            }
            return new Result(deleted, commands, seconds, planNanos / 1e9);
        }
    }
}
