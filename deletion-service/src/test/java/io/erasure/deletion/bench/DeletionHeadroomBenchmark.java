package io.erasure.deletion.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.erasure.deletion.DeletionProperties;
import io.erasure.deletion.throttle.AdaptiveThrottle;
import io.erasure.deletion.throttle.ShardOwnership;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Live read p99 on the local Cassandra node without deletion, then with a large deletion running under
 * the adaptive throttle at several headroom settings (and unthrottled, for contrast). Prints one line
 * per phase: deletion rows/s, live p99 and its ratio to the baseline.
 *
 * <pre>
 * ./mvnw -B -q -o -f deletion-service/pom.xml test-compile org.codehaus.mojo:exec-maven-plugin:3.5.0:java \
 *   -Dexec.mainClass=io.erasure.deletion.bench.DeletionHeadroomBenchmark -Dexec.classpathScope=test \
 *   [-Dbench.rows=300000 -Dbench.phase-seconds=20 -Dbench.live-rate=1000 -Dbench.headrooms=0.5,0.3,0.1]
 * </pre>
 * The live workload and the deleter share the machine with the node (2 cores here): figures are
 * relative, compare ratios within one run.
 */
public final class DeletionHeadroomBenchmark {

    private static final int ROWS = Integer.getInteger("bench.rows", 300_000);
    private static final int PHASE_SECONDS = Integer.getInteger("bench.phase-seconds", 15);
    private static final int LIVE_RATE = Integer.getInteger("bench.live-rate", 1_000);
    private static final int BATCH = 200;
    private static final String PAYLOAD = "x".repeat(200);

    private DeletionHeadroomBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        CassandraEngine cassandra = LocalEngines.cassandra();
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                .withLocalDatacenter(cassandra.localDatacenter()).build();
             StoreAdapter adapter = StoreAdapters.load().open(new StoreConnection("bench", StoreKind.CASSANDRA, Map.of(
                     "contact-points", cassandra.contactPoint(), "local-datacenter", cassandra.localDatacenter(),
                     "jmx-host", cassandra.host(), "jmx-port", Integer.toString(cassandra.jmxPort()))))) {
            DatasetSpec spec = load(session);
            adapter.checkDataset(spec);
            CutoffTimestamp cutoff = CutoffTimestamp.fromInstant(Instant.now());
            AtomicLong nextToDelete = new AtomicLong(0);
            long liveFrom = ROWS / 2;
            String[] headrooms = System.getProperty("bench.headrooms", "0.5,0.3,0.1").split(",");
            // each deleting phase gets its own slice of ids, so none runs out of rows to delete
            long slice = liveFrom / (headrooms.length + 1);

            System.out.printf("rows=%d phase=%ds live reads=%d/s on ids %d..%d%n", ROWS, PHASE_SECONDS, LIVE_RATE, liveFrom, ROWS);
            System.out.printf("%-14s %14s %12s %12s %10s%n", "phase", "deletes/s", "live p50 ms", "live p99 ms", "p99 ratio");
            double baseline = phase("baseline", session, liveFrom, null, null, spec, cutoff, nextToDelete, 0)[1];
            int index = 0;
            for (String headroom : headrooms) {
                nextToDelete.set(slice * index);
                phase("headroom " + headroom, session, liveFrom, adapter, Double.parseDouble(headroom), spec, cutoff,
                        nextToDelete, slice * ++index, baseline);
            }
            nextToDelete.set(slice * index);
            phase("unthrottled", session, liveFrom, adapter, -1.0, spec, cutoff, nextToDelete, slice * (index + 1), baseline);
        }
        System.exit(0);
    }

    private static double[] phase(String name, CqlSession session, long liveFrom, StoreAdapter adapter, Double headroom,
                                  DatasetSpec spec, CutoffTimestamp cutoff, AtomicLong nextToDelete, long sliceEnd,
                                  double... baseline)
            throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong deleted = new AtomicLong();
        Thread deleter = null;
        ScheduledExecutorService control = Executors.newSingleThreadScheduledExecutor();
        if (adapter != null) {
            AdaptiveThrottle throttle = headroom < 0 ? null : new AdaptiveThrottle(new DeletionProperties(headroom,
                    100_000, 50, 500, 0.7, Duration.ofSeconds(1), Duration.ofMillis(250), null, null, null, null, null, null, null, null),
                    new ShardOwnership(), new SimpleMeterRegistry());
            if (throttle != null) {
                control.scheduleWithFixedDelay(() -> throttle.adjust(store -> adapter.loadSignal()), 1, 1, TimeUnit.SECONDS);
            }
            deleter = new Thread(() -> {
                while (running.get()) {
                    long from = nextToDelete.getAndAdd(BATCH);
                    if (from + BATCH > Math.min(liveFrom, sliceEnd)) {
                        return;
                    }
                    List<Map<String, Object>> keys = new ArrayList<>();
                    for (long id = from; id < from + BATCH; id++) {
                        keys.add(Map.of("id", id));
                    }
                    if (throttle != null) {
                        throttle.acquire("bench", BATCH);
                    }
                    long started = System.nanoTime();
                    var outcome = adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "bench-" + from, cutoff, keys)));
                    if (throttle != null) {
                        throttle.observe("bench", Duration.ofNanos(System.nanoTime() - started));
                    }
                    deleted.addAndGet(outcome.deleted());
                }
            }, "deleter");
            deleter.start();
        }
        long[] latencies = liveReads(session, liveFrom, Duration.ofSeconds(PHASE_SECONDS));
        running.set(false);
        if (deleter != null) {
            deleter.join();
        }
        control.shutdownNow();
        double p50 = percentile(latencies, 0.50);
        double p99 = percentile(latencies, 0.99);
        double rate = deleted.get() / (double) PHASE_SECONDS;
        System.out.printf("%-14s %14.0f %12.2f %12.2f %10s%n", name, rate, p50, p99,
                baseline.length == 0 ? "1.00" : String.format("%.2f", p99 / baseline[0]));
        return new double[] {rate, p99};
    }

    /** Point reads at a steady rate (async, so a slow read does not slow the rate); returns latencies in ms. */
    private static long[] liveReads(CqlSession session, long liveFrom, Duration duration) throws InterruptedException {
        PreparedStatement read = session.prepare("SELECT name, payload FROM bench.profiles WHERE id = ?");
        ConcurrentLinkedQueue<Long> micros = new ConcurrentLinkedQueue<>();
        List<CompletionStage<?>> pending = new ArrayList<>();
        long intervalNanos = 1_000_000_000L / LIVE_RATE;
        long end = System.nanoTime() + duration.toNanos();
        long next = System.nanoTime();
        while (next < end) {
            long id = ThreadLocalRandom.current().nextLong(liveFrom, ROWS);
            long started = System.nanoTime();
            pending.add(session.executeAsync(read.bind(id))
                    .whenComplete((rs, e) -> micros.add((System.nanoTime() - started) / 1_000)));
            next += intervalNanos;
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                TimeUnit.NANOSECONDS.sleep(sleep);
            }
        }
        for (CompletionStage<?> stage : pending) {
            stage.toCompletableFuture().exceptionally(e -> null).join();
        }
        return micros.stream().mapToLong(Long::longValue).toArray();
    }

    private static double percentile(long[] micros, double p) {
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1000.0;
    }

    private static DatasetSpec load(CqlSession session) {
        session.execute("CREATE KEYSPACE IF NOT EXISTS bench WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("DROP TABLE IF EXISTS bench.profiles");
        session.execute("CREATE TABLE bench.profiles (id bigint PRIMARY KEY, name text, payload text)");
        PreparedStatement insert = session.prepare("INSERT INTO bench.profiles (id, name, payload) VALUES (?, ?, ?) USING TIMESTAMP ?");
        long writeTime = CutoffTimestamp.toMicros(Instant.now().minusSeconds(3600));
        List<CompletionStage<?>> inFlight = new ArrayList<>();
        for (long id = 0; id < ROWS; id++) {
            inFlight.add(session.executeAsync(insert.bind(id, "name-" + id, PAYLOAD, writeTime)));
            if (inFlight.size() == 256) {
                inFlight.forEach(s -> s.toCompletableFuture().join());
                inFlight.clear();
            }
        }
        inFlight.forEach(s -> s.toCompletableFuture().join());
        return DatasetSpec.builder().name("bench-profiles").storeKind(StoreKind.CASSANDRA).connectionRef("bench")
                .namespace("bench").table("profiles").keyColumns(KeyColumns.partitionOnly("id")).identifierColumn("id")
                .identifierSource("customers").conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation("bench-profiles", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0)).ownerTeam("bench").build();
    }
}
