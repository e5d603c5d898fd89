package io.erasure.audit.sstable;

import io.erasure.identifiers.HashedIdentifierSet;
import io.erasure.identifiers.IdentifierHash;
import io.erasure.identifiers.IdentifierSetFile;
import io.erasure.process.ChildJvm;
import io.erasure.process.JavaRuntimes;
import io.erasure.process.RuntimeClasspath;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The SSTable reader against its own ceiling, on the same SSTables in the same run (issue 21's figures; not a test,
 * nothing asserts on time). It writes {@code rows} rows of an orders table ({@code customer_id bigint, order_id
 * bigint, status text, total int}, five orders per customer) as SSTables with Cassandra's own writer, in
 * {@code sstables} separate writes (so the reader merges that many SSTables), and a deletable set of {@code ids}
 * text identifiers of which 1 % of the customers are members. Then, {@code repeats} times each, by the reader's
 * CPU time (its child JVM's scanning thread, without its start and the set's loading):
 * <ul>
 *   <li>the ceiling: the SSTables merged and every row read, no identifier looked up;</li>
 *   <li>the audit: the same, with each live row's identifier spelled, hashed and looked up, and the matching rows
 *       written as candidates.</li>
 * </ul>
 * Run (from the repository root, after building the modules once):
 * <pre>
 * ./mvnw -B -q -o -pl audit-service test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test \
 * &amp;&amp; java \
 *     -cp audit-service/target/test-classes:audit-service/target/classes:$(cat audit-service/target/bench.classpath) \
 *     io.erasure.audit.sstable.SSTableScanBenchmark [rows=2000000] [ids=1000000] [sstables=4] [repeats=3]
 * </pre>
 */
public final class SSTableScanBenchmark {

    private static final String SCHEMA = "CREATE TABLE bench.orders (customer_id bigint, order_id bigint,"
            + " status text, total int, PRIMARY KEY ((customer_id), order_id));\n";

    private static final Pattern NUMBERED = Pattern.compile("(\\w+)-(\\d+)-(.+)");

    private SSTableScanBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int ids = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        int sstables = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        Path root = Files.createTempDirectory("erasure-sstable-bench-");
        try {
            Path schema = root.resolve("schema.cql");
            Files.writeString(schema, SCHEMA);
            Path table = Files.createDirectories(root.resolve("bench").resolve("orders-0"));
            int customers = rows / 5;
            long started = System.nanoTime();
            for (int s = 0; s < sstables; s++) {
                write(root, schema, table, s, sstables, rows);
            }
            System.out.printf(
                    "wrote %,d rows as %d SSTable writes in %d s%n",
                    rows,
                    sstables,
                    Duration.ofNanos(System.nanoTime() - started).toSeconds());

            HashedIdentifierSet set = new HashedIdentifierSet(ids, HashedIdentifierSet.DEFAULT_LOAD_FACTOR);
            long[] a = new long[1];
            long[] b = new long[1];
            int members = 0;
            for (int customer = 1; customer <= customers; customer += 100) {
                IdentifierHash.hash(Integer.toString(customer), a, b, 0);
                set.add(a[0], b[0]);
                members++;
            }
            SplittableRandom random = new SplittableRandom(7);
            while (set.size() < ids) {
                IdentifierHash.hash("x" + random.nextLong(), a, b, 0);
                set.add(a[0], b[0]);
            }
            Path identifiers = root.resolve("identifiers.set");
            IdentifierSetFile.write(set, identifiers);
            System.out.printf("%,d identifiers, %,d of them customers (1 %%)%n", set.size(), members);

            SSTableScan scan = SSTableScan.onRuntimeClasspath(Duration.ofMinutes(30), "2g");
            SSTableUnit unit = new SSTableUnit(
                    "bench",
                    "orders",
                    schema,
                    List.of(table),
                    List.of("customer_id", "order_id"),
                    "customer_id",
                    null,
                    Instant.now().getEpochSecond());
            List<Double> ceilings = new ArrayList<>();
            List<Double> audits = new ArrayList<>();
            long candidates = 0;
            for (int r = 0; r < repeats; r++) {
                Path work = Files.createDirectories(root.resolve("run-" + r));
                ScanResult ceiling = scan.ceiling(unit, identifiers, Files.createDirectories(work.resolve("c")));
                AtomicLong found = new AtomicLong();
                ScanResult audit = scan.scan(
                        unit, identifiers, Files.createDirectories(work.resolve("a")), c -> found.incrementAndGet());
                ceilings.add(perSecond(ceiling));
                audits.add(perSecond(audit));
                candidates = found.get();
                System.out.printf(
                        "run %d: %d SSTables, %,d rows; ceiling %.2f M rows/s per core, audit %.2f M"
                                + " (%,d candidates)%n",
                        r + 1,
                        audit.sstables(),
                        audit.rowsScanned(),
                        ceilings.get(r) / 1e6,
                        audits.get(r) / 1e6,
                        candidates);
            }
            double ceiling = ceilings.stream().max(Double::compare).orElseThrow();
            double audit = audits.stream().max(Double::compare).orElseThrow();
            List<Double> ratios = new ArrayList<>();
            for (int r = 0; r < repeats; r++) {
                ratios.add(audits.get(r) / ceilings.get(r));
            }
            ratios.sort(Double::compare);
            System.out.printf(
                    "best of %d: ceiling %.2f M rows/s per core, audit %.2f M rows/s per core, %.0f %% of the ceiling;"
                            + " median of the rounds' ratios %.0f %%; %,d candidates of %,d rows%n",
                    repeats,
                    ceiling / 1e6,
                    audit / 1e6,
                    100 * audit / ceiling,
                    100 * ratios.get(repeats / 2),
                    candidates,
                    rows);
        } finally {
            try (Stream<Path> paths = Files.walk(root)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    private static double perSecond(ScanResult result) {
        return result.rowsScanned() / (result.scanCpuNanos() / 1e9);
    }

    /** Rows {@code s, s + sstables, ...} of the table, written by Cassandra's SSTable writer into {@code table}. */
    private static void write(Path root, Path schema, Path table, int s, int sstables, int rows) throws Exception {
        Path lines = root.resolve("rows-" + s + ".jsonl");
        try (BufferedWriter out = Files.newBufferedWriter(lines, StandardCharsets.UTF_8)) {
            for (int i = s; i < rows; i += sstables) {
                int customer = 1 + i / 5;
                out.write("{\"json\": \"{\\\"customer_id\\\": " + customer + ", \\\"order_id\\\": " + i
                        + ", \\\"status\\\": \\\"NEW\\\", \\\"total\\\": " + (i % 1000) + "}\", \"ts\": "
                        + (1_700_000_000_000_000L + i) + "}\n");
            }
        }
        Path out = Files.createDirectories(root.resolve("write-" + s));
        List<String> jvmArgs = new ArrayList<>(List.of("-Xmx2g", "-XX:+UseSerialGC"));
        jvmArgs.addAll(JavaRuntimes.CASSANDRA_JAVA17_FLAGS);
        try (ChildJvm child = ChildJvm.start(
                "sstable-writer",
                RuntimeClasspath.of("runtime-cassandra").asPath(),
                JavaRuntimes.java17(),
                jvmArgs,
                "io.erasure.infra.cassandra.bulk.SSTableWriterMain",
                List.of(schema.toString(), lines.toString(), out.toString()),
                root,
                root.resolve("writer-" + s + ".log"))) {
            child.awaitExit(Duration.ofMinutes(20));
        }
        // each write numbers its SSTables from 1: give numbered ones generations of their own in the one folder
        try (Stream<Path> files = Files.list(out)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                Matcher numbered = NUMBERED.matcher(name);
                String renamed = numbered.matches()
                        ? numbered.group(1) + "-" + ((s + 1) * 1000 + Integer.parseInt(numbered.group(2))) + "-"
                                + numbered.group(3)
                        : name;
                Files.move(file, table.resolve(renamed));
            }
        }
        Files.delete(out);
        Files.delete(lines);
    }
}
