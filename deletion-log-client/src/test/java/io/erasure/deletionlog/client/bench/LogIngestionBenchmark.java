package io.erasure.deletionlog.client.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.sun.management.OperatingSystemMXBean;
import io.erasure.deletionlog.client.DeletionLog;
import io.erasure.deletionlog.client.LogSchema;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * What storing the deletion log costs: deletion records written to the real log tables through {@link
 * io.erasure.deletionlog.client.LogWriter} in polls of 500, as deletion-log-service stores them, against the local
 * Cassandra node. Prints, per round (median and range over the rounds), records/s and the CPU time per record of the
 * node and of this JVM (the writer: payload sealing, statements, the driver). A main, not a test:
 *
 * <pre>
 * ./mvnw -B -q -o -pl deletion-log-client test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
 * cd deletion-log-client && java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" \
 *   io.erasure.deletionlog.client.bench.LogIngestionBenchmark
 * # before the class name: -Dbench.records=50000 -Dbench.rounds=5 -Dbench.poll=500
 * </pre>
 */
public final class LogIngestionBenchmark {

    private static final String MASTER_KEY = "bG9nLWluZ2VzdGlvbi1iZW5jaC1tYXN0ZXIta2V5ISE=";

    private LogIngestionBenchmark() {}

    public static void main(String[] args) {
        int records = Integer.getInteger("bench.records", 50_000);
        int rounds = Integer.getInteger("bench.rounds", 5);
        int poll = Integer.getInteger("bench.poll", 500);
        CassandraEngine cassandra = LocalEngines.cassandra();
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                .withLocalDatacenter(cassandra.localDatacenter())
                .build()) {
            session.execute("CREATE KEYSPACE IF NOT EXISTS " + LogSchema.KEYSPACE
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            LogSchema.create(session, Duration.ofDays(30));
            DeletionLog log = DeletionLog.open(
                    session,
                    MASTER_KEY,
                    Duration.ofDays(30),
                    JsonMapper.builder().build(),
                    Clock.systemUTC());
            write(log, "warm-up", Math.min(records, 10_000), poll);

            double[] rate = new double[rounds];
            double[] nodeMicros = new double[rounds];
            double[] writerMicros = new double[rounds];
            for (int round = 0; round < rounds; round++) {
                double nodeBefore = cpuSeconds(cassandra.pid());
                double writerBefore = ownCpuSeconds();
                long started = System.nanoTime();
                write(log, "round-" + round, records, poll);
                double seconds = (System.nanoTime() - started) / 1e9;
                rate[round] = records / seconds;
                nodeMicros[round] = (cpuSeconds(cassandra.pid()) - nodeBefore) * 1e6 / records;
                writerMicros[round] = (ownCpuSeconds() - writerBefore) * 1e6 / records;
                System.out.printf(
                        Locale.ROOT,
                        "round %d: %,d records in %.1f s, %,.0f records/s; CPU per record: node %.0f µs,"
                                + " writer %.0f µs%n",
                        round + 1,
                        records,
                        seconds,
                        rate[round],
                        nodeMicros[round],
                        writerMicros[round]);
            }
            System.out.printf(
                    Locale.ROOT,
                    "%nlog ingestion, %d rounds of %,d records in polls of %d (median, min..max)%n",
                    rounds,
                    records,
                    poll);
            System.out.printf(Locale.ROOT, "records/s                 %s%n", summary(rate, "%,.0f"));
            System.out.printf(Locale.ROOT, "node CPU per record (µs)  %s%n", summary(nodeMicros, "%.0f"));
            System.out.printf(Locale.ROOT, "writer CPU per record (µs)%s%n", summary(writerMicros, "%.0f"));
        }
        System.exit(0); // the engines stop with the JVM
    }

    /** {@code count} records of one run, shaped like a PostgreSQL row's (a key and a few columns), in polls. */
    private static void write(DeletionLog log, String label, int count, int poll) {
        String dataset = "bench-log";
        RunId run = RunId.of("run-" + label + "-" + System.nanoTime());
        Instant now = Instant.now();
        List<DeletionRecord> batch = new ArrayList<>(poll);
        for (long id = 1; id <= count; id++) {
            Map<String, Object> key = Map.of("id", id);
            List<ColumnValue> columns = List.of(
                    ColumnValue.of("id", id),
                    ColumnValue.of("email", "member-" + id + "@example.com"),
                    ColumnValue.of("name", "Member " + id),
                    ColumnValue.of("status", "departed"));
            batch.add(new DeletionRecord(
                    DeletionRecord.recordIdFor(run.value(), dataset, key),
                    dataset,
                    key,
                    columns,
                    CutoffTimestamp.fromInstant(now.minusSeconds(60)),
                    run,
                    null,
                    "task-" + id / poll,
                    "batch-" + id / poll,
                    now,
                    null,
                    false));
            if (batch.size() == poll) {
                log.writer().write(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            log.writer().write(batch);
        }
    }

    private static double cpuSeconds(long pid) {
        return ProcessHandle.of(pid)
                .flatMap(p -> p.info().totalCpuDuration())
                .map(d -> d.toNanos() / 1e9)
                .orElseThrow(() -> new IllegalStateException("no CPU time for process " + pid));
    }

    private static double ownCpuSeconds() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
    }

    private static String summary(double[] values, String format) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format(
                Locale.ROOT,
                " " + format + " (" + format + ".." + format + ")",
                sorted[sorted.length / 2],
                sorted[0],
                sorted[sorted.length - 1]);
    }
}
