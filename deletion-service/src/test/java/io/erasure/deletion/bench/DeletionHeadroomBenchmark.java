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
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
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
import java.util.concurrent.atomic.AtomicReference;

/**
 * Live read p99 on the local Cassandra node without deletion, then with a deletion running under the adaptive
 * throttle at several headroom settings, and unthrottled for contrast; then deletion alone (no live reads) to show
 * the limit climbing to the cap and staying there (a cap the node can take within its headroom; above it, the node's
 * own CPU stops the climb, as it should). Each kind of phase runs {@code bench.runs} times, interleaved
 * (baseline, 0.5, 0.3, 0.1, unthrottled, baseline, ...), and the median of the runs is printed, with the spread.
 *
 * <p>Live reads go at a fixed rate to their own slice of the same table the deleter deletes from. Each phase first
 * runs {@code bench.warmup-seconds} of live reads without deletion (the throttle learns the reads' baseline), then
 * {@code bench.phase-seconds} measured with the deleter running. Per phase: deletion rows/s, the live reads' p50 and
 * p99 as the client sees them, that p99 over the same run's baseline, and the node's own client read p99 (the signal
 * the throttle follows, median of its windows). Run from the repository root (about 5 minutes with the defaults):
 *
 * <pre>
 * ./mvnw -B -q -o -pl deletion-service test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
 * cd deletion-service &amp;&amp; java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" \
 *   [-Dbench.runs=5 -Dbench.phase-seconds=8 -Dbench.warmup-seconds=2 -Dbench.live-rate=1000 \
 *    -Dbench.headrooms=0.5,0.3,0.1 -Dbench.cap=10000 -Dbench.step=250 -Dbench.climb-cap=2000 -Dbench.rows=600000] \
 *   io.erasure.deletion.bench.DeletionHeadroomBenchmark
 * </pre>
 * The live workload, the deleter and the node share the machine (2 cores here): figures are relative, compare
 * ratios within one run.
 */
public final class DeletionHeadroomBenchmark {

    private static final int RUNS = Integer.getInteger("bench.runs", 5);
    private static final int PHASE_SECONDS = Integer.getInteger("bench.phase-seconds", 8);
    private static final int WARMUP_SECONDS = Integer.getInteger("bench.warmup-seconds", 2);
    private static final int CLIMB_SECONDS = Integer.getInteger("bench.climb-seconds", 15);
    private static final int LIVE_RATE = Integer.getInteger("bench.live-rate", 1_000);
    private static final int CAP = Integer.getInteger("bench.cap", 10_000);
    private static final int STEP = Integer.getInteger("bench.step", 250);
    private static final int CLIMB_CAP = Integer.getInteger("bench.climb-cap", 2_000);
    private static final int ROWS = Integer.getInteger("bench.rows", 600_000);
    private static final int LIVE_ROWS = 50_000;
    private static final int BATCH = 200;
    private static final String PAYLOAD = "x".repeat(200);

    private DeletionHeadroomBenchmark() {}

    /** One phase's figures. */
    private record Phase(double deletesPerSecond, double p50, double p99, double nodeP99, int finalLimit) {}

    public static void main(String[] args) throws Exception {
        CassandraEngine cassandra = LocalEngines.cassandra();
        try (CqlSession session = CqlSession.builder()
                        .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                        .withLocalDatacenter(cassandra.localDatacenter())
                        .build();
                StoreAdapter adapter = StoreAdapters.load()
                        .open(new StoreConnection(
                                "bench",
                                StoreKind.CASSANDRA,
                                Map.of(
                                        "contact-points",
                                        cassandra.contactPoint(),
                                        "local-datacenter",
                                        cassandra.localDatacenter(),
                                        "jmx-host",
                                        cassandra.host(),
                                        "jmx-port",
                                        Integer.toString(cassandra.jmxPort()))))) {
            DatasetSpec spec = load(session);
            adapter.checkDataset(spec);
            Bench bench = new Bench(session, adapter, spec, CutoffTimestamp.fromInstant(Instant.now()));
            List<String> kinds = new ArrayList<>(List.of("baseline"));
            for (String headroom :
                    System.getProperty("bench.headrooms", "0.5,0.3,0.1").split(",")) {
                kinds.add("headroom " + headroom.trim());
            }
            kinds.add("unthrottled");

            System.out.printf(
                    "rows=%d live reads=%d/s on %d rows, runs=%d, warm-up %ds + %ds measured per phase,"
                            + " cap %d rows/s (starting at a tenth), +%d rows/s a step, batches of %d%n",
                    ROWS, LIVE_RATE, LIVE_ROWS, RUNS, WARMUP_SECONDS, PHASE_SECONDS, CAP, STEP, BATCH);
            Map<String, List<Phase>> results = new LinkedHashMap<>();
            Map<String, List<Double>> ratios = new LinkedHashMap<>();
            for (int run = 1; run <= RUNS; run++) {
                double baselineP99 = 0;
                for (String kind : kinds) {
                    Phase phase = bench.phase(headroomOf(kind), true, WARMUP_SECONDS, PHASE_SECONDS);
                    baselineP99 = kind.equals("baseline") ? phase.p99() : baselineP99;
                    results.computeIfAbsent(kind, k -> new ArrayList<>()).add(phase);
                    ratios.computeIfAbsent(kind, k -> new ArrayList<>()).add(phase.p99() / baselineP99);
                    System.out.printf(
                            "  run %d %-14s %8.0f deletes/s  live p99 %6.2f ms (%.2fx)  node p99 %6.2f ms%n",
                            run,
                            kind,
                            phase.deletesPerSecond(),
                            phase.p99(),
                            phase.p99() / baselineP99,
                            phase.nodeP99());
                }
            }

            double unthrottled = median(results.get("unthrottled").stream()
                    .mapToDouble(Phase::deletesPerSecond)
                    .toArray());
            System.out.printf("%nmedian of %d runs (min..max)%n", RUNS);
            System.out.printf(
                    "%-14s %22s %9s %22s %20s %18s%n",
                    "phase", "deletes/s", "of unthr.", "live p99 ms", "p99 / baseline", "node p99 ms");
            results.forEach((kind, phases) -> {
                double[] rates =
                        phases.stream().mapToDouble(Phase::deletesPerSecond).toArray();
                double[] p99s = phases.stream().mapToDouble(Phase::p99).toArray();
                double[] ratio = ratios.get(kind).stream()
                        .mapToDouble(Double::doubleValue)
                        .toArray();
                double[] node = phases.stream().mapToDouble(Phase::nodeP99).toArray();
                System.out.printf(
                        "%-14s %22s %8.0f%% %22s %20s %18s%n",
                        kind,
                        spread(rates, "%.0f"),
                        unthrottled == 0 ? 0 : 100 * median(rates) / unthrottled,
                        spread(p99s, "%.2f"),
                        spread(ratio, "%.2f"),
                        spread(node, "%.2f"));
            });

            System.out.printf(
                    "%nno live reads, headroom 0.3, cap %d rows/s, %d s: the limit each second%n",
                    CLIMB_CAP, CLIMB_SECONDS);
            bench.climb(0.3, CLIMB_CAP, CLIMB_SECONDS);
        }
        System.exit(0);
    }

    private static Double headroomOf(String kind) {
        if (kind.startsWith("headroom ")) {
            return Double.valueOf(kind.substring("headroom ".length()));
        }
        return kind.equals("unthrottled") ? Double.valueOf(-1) : null;
    }

    /** The engine, the table and the ids still to delete, shared by the phases. */
    private static final class Bench {
        private final CqlSession session;
        private final StoreAdapter adapter;
        private final DatasetSpec spec;
        private final CutoffTimestamp cutoff;
        private final AtomicLong nextToDelete = new AtomicLong(LIVE_ROWS);

        Bench(CqlSession session, StoreAdapter adapter, DatasetSpec spec, CutoffTimestamp cutoff) {
            this.session = session;
            this.adapter = adapter;
            this.spec = spec;
            this.cutoff = cutoff;
        }

        /** headroom null: no deletion; below 0: deletion without a throttle. */
        Phase phase(Double headroom, boolean liveReads, int warmupSeconds, int seconds) throws Exception {
            AtomicBoolean deleting = new AtomicBoolean(false);
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong deleted = new AtomicLong();
            AdaptiveThrottle throttle = headroom == null || headroom < 0 ? null : throttle(headroom, CAP);
            ConcurrentLinkedQueue<Double> nodeP99 = new ConcurrentLinkedQueue<>();
            adapter.loadSignal(); // closes the node's read window left open by the last phase, so none spans two
            ScheduledExecutorService control = Executors.newSingleThreadScheduledExecutor();
            // one reader of the store's signal per phase: the throttle's, or a monitor's when there is no throttle
            control.scheduleWithFixedDelay(
                    () -> {
                        LoadSignal signal = adapter.loadSignal();
                        if (deleting.get() && signal.readLatency() != null) {
                            nodeP99.add(signal.readLatency().p99Millis());
                        }
                        if (throttle != null) {
                            throttle.adjust(store -> signal);
                        }
                    },
                    0,
                    1,
                    TimeUnit.SECONDS);
            Thread deleter =
                    headroom == null ? null : new Thread(() -> delete(throttle, deleting, running, deleted), "deleter");
            if (deleter != null) {
                deleter.start();
            }
            ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
            Thread reader = new Thread(() -> liveReads(latencies, deleting, running), "live-reads");
            if (liveReads) {
                reader.start();
            }
            TimeUnit.SECONDS.sleep(warmupSeconds);
            deleting.set(true);
            long deletedBefore = deleted.get();
            TimeUnit.SECONDS.sleep(seconds);
            long deletedInPhase = deleted.get() - deletedBefore;
            running.set(false);
            if (deleter != null) {
                deleter.join();
            }
            if (liveReads) {
                reader.join();
            }
            control.shutdownNow();
            control.awaitTermination(5, TimeUnit.SECONDS);
            long[] micros = latencies.stream().mapToLong(Long::longValue).toArray();
            return new Phase(
                    deletedInPhase / (double) seconds,
                    percentile(micros, 0.50),
                    percentile(micros, 0.99),
                    median(nodeP99.stream().mapToDouble(Double::doubleValue).toArray()),
                    throttle == null ? 0 : throttle.limit("bench"));
        }

        /** Deletion alone under a throttle; prints the limit every second. */
        void climb(double headroom, int cap, int seconds) throws Exception {
            AdaptiveThrottle throttle = throttle(headroom, cap);
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong deleted = new AtomicLong();
            ScheduledExecutorService control = Executors.newSingleThreadScheduledExecutor();
            AtomicReference<LoadSignal> lastSignal = new AtomicReference<>();
            control.scheduleWithFixedDelay(
                    () -> throttle.adjust(store -> {
                        LoadSignal signal = adapter.loadSignal();
                        lastSignal.set(signal);
                        return signal;
                    }),
                    1,
                    1,
                    TimeUnit.SECONDS);
            Thread deleter = new Thread(() -> delete(throttle, new AtomicBoolean(true), running, deleted), "deleter");
            deleter.start();
            StringBuilder limits = new StringBuilder();
            long last = 0;
            for (int second = 0; second < seconds; second++) {
                TimeUnit.SECONDS.sleep(1);
                long now = deleted.get();
                LoadSignal signal = lastSignal.get();
                limits.append(String.format(
                        "%n  %2ds limit %6d rows/s, deleted %5d rows/s  %s",
                        second + 1, throttle.limit("bench"), now - last, signal == null ? "" : describe(signal)));
                last = now;
            }
            running.set(false);
            deleter.join();
            control.shutdownNow();
            System.out.println(limits.substring(System.lineSeparator().length()));
            System.out.printf("cap %d rows/s; final limit %d%n", cap, throttle.limit("bench"));
        }

        private AdaptiveThrottle throttle(double headroom, int cap) {
            return new AdaptiveThrottle(
                    new DeletionProperties(
                            headroom,
                            cap,
                            50,
                            STEP,
                            0.7,
                            Duration.ofSeconds(1),
                            Duration.ofMillis(500),
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            null),
                    new ShardOwnership(),
                    new SimpleMeterRegistry());
        }

        private void delete(
                AdaptiveThrottle throttle, AtomicBoolean deleting, AtomicBoolean running, AtomicLong deleted) {
            while (running.get()) {
                if (!deleting.get()) {
                    sleepQuietly(20);
                    continue;
                }
                long from = nextToDelete.getAndAdd(BATCH);
                if (from + BATCH > ROWS) {
                    System.out.println("  (out of rows to delete: raise -Dbench.rows)");
                    return;
                }
                List<Map<String, Object>> keys = new ArrayList<>();
                for (long id = from; id < from + BATCH; id++) {
                    keys.add(Map.of("id", id));
                }
                if (throttle != null
                        && !throttle.acquire("bench", BATCH, () -> !running.get(), Duration.ofMillis(50))) {
                    return;
                }
                long started = System.nanoTime();
                var outcome =
                        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "bench-" + from, cutoff, keys)));
                if (throttle != null) {
                    throttle.observe("bench", Duration.ofNanos(System.nanoTime() - started));
                }
                deleted.addAndGet(outcome.deleted());
            }
        }

        /**
         * Point reads at a steady rate (async, so a slow read does not slow the rate); keeps latencies while deleting.
         */
        private void liveReads(ConcurrentLinkedQueue<Long> micros, AtomicBoolean measuring, AtomicBoolean running) {
            PreparedStatement read = session.prepare("SELECT name, payload FROM bench.profiles WHERE id = ?");
            List<CompletionStage<?>> pending = new ArrayList<>();
            long intervalNanos = 1_000_000_000L / LIVE_RATE;
            long next = System.nanoTime();
            while (running.get()) {
                long id = ThreadLocalRandom.current().nextLong(0, LIVE_ROWS);
                long started = System.nanoTime();
                boolean measured = measuring.get();
                pending.add(session.executeAsync(read.bind(id)).whenComplete((rs, e) -> {
                    if (measured) {
                        micros.add((System.nanoTime() - started) / 1_000);
                    }
                }));
                next += intervalNanos;
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    sleepQuietly(TimeUnit.NANOSECONDS.toMillis(sleep), (int) (sleep % 1_000_000));
                }
                if (pending.size() > 10_000) {
                    pending.removeIf(stage -> stage.toCompletableFuture().isDone());
                }
            }
            for (CompletionStage<?> stage : pending) {
                stage.toCompletableFuture().exceptionally(e -> null).join();
            }
        }
    }

    /** The signal's busiest part and its read latency window. */
    private static String describe(LoadSignal signal) {
        var busiest = signal.parts().entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElse(null);
        return String.format(
                "utilization %.2f (%s)%s",
                signal.utilization(),
                busiest == null ? "-" : busiest.getKey(),
                signal.readLatency() == null
                        ? ""
                        : String.format(
                                ", node read p99 %.2f ms of %d reads",
                                signal.readLatency().p99Millis(),
                                signal.readLatency().reads()));
    }

    private static void sleepQuietly(long millis) {
        sleepQuietly(millis, 0);
    }

    private static void sleepQuietly(long millis, int nanos) {
        try {
            Thread.sleep(millis, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static double percentile(long[] micros, double p) {
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        return sorted.length == 0
                ? 0
                : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1000.0;
    }

    /** The median of {@code values} (0 for none); the bench package's one median. */
    static double median(double[] values) {
        if (values.length == 0) {
            return 0;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1
                ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    private static String spread(double[] values, String format) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format(
                format + " (" + format + ".." + format + ")", median(values), sorted[0], sorted[sorted.length - 1]);
    }

    private static DatasetSpec load(CqlSession session) {
        session.execute("CREATE KEYSPACE IF NOT EXISTS bench WITH replication = {'class': 'SimpleStrategy',"
                + " 'replication_factor': 1}");
        session.execute("DROP TABLE IF EXISTS bench.profiles");
        session.execute("CREATE TABLE bench.profiles (id bigint PRIMARY KEY, name text, payload text)");
        PreparedStatement insert =
                session.prepare("INSERT INTO bench.profiles (id, name, payload) VALUES (?, ?, ?) USING TIMESTAMP ?");
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
        return DatasetSpec.builder()
                .name("bench-profiles")
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("bench")
                .namespace("bench")
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation("bench-profiles", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("bench")
                .build();
    }
}
