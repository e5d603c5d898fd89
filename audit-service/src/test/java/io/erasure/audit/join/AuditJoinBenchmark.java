package io.erasure.audit.join;

import io.erasure.audit.candidates.CandidateFileWriter;
import io.erasure.backup.format.BackupJson;
import io.erasure.backup.format.PartCompression;
import io.erasure.backup.format.Sha256;
import io.erasure.identifiers.HashedIdentifierSet;
import io.erasure.identifiers.IdentifierHash;
import io.erasure.identifiers.IdentifierKind;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.identifiers.LongIdentifierSet;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.KeyColumns;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.UUID;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import tools.jackson.databind.JsonNode;

/**
 * Audit throughput against the raw ceiling, measured in one run on one machine (figures for
 * PERFORMANCE.md and the closing note). Not a test: nothing asserts on time.
 *
 * <p>For each identifier kind (numeric, 24-character strings) it builds a deletable set of
 * {@code ids} identifiers, generates {@code rows} gzip and zstd JSON Lines rows of about 315 bytes
 * of which 1 % carry a deletable identifier, then measures on one thread, by thread CPU time
 * (best of {@code repeats}, and the median ratio of the ceiling and audit runs taken in pairs):
 * <ul>
 *   <li>the ceiling: decompress and read only the identifier field of each row;</li>
 *   <li>the audit: {@link PartJoin} as the service runs it: SHA-256 of the stored bytes,
 *       decompress, find the identifier, chunked set lookups, full parse of the matching rows, and
 *       the gzip candidate file.</li>
 * </ul>
 * The same rows as a Parquet part (snappy, the usual 128 MiB row groups) are measured the same way: the
 * ceiling reads the identifier column of the stored file and nothing else; the audit is {@link ParquetPartJoin}:
 * the copy to a temporary file under SHA-256, the identifier column, the lookups, the key columns of the row
 * groups with matches, and the candidate file. An RDS export's file is joined where it lies (no SHA-256, no copy),
 * and set beside the ceiling (parquet-java's scan of the same columns, no join) and a stricter one (the
 * identifier column alone, read by the join's own page reader, no lookups).
 * Run (from the repository root, after building the modules once):
 * <pre>
 * ./mvnw -B -q -o -pl audit-service test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test \
 * &amp;&amp; java -Xmx6g \
 *     -cp audit-service/target/test-classes:audit-service/target/classes:$(cat audit-service/target/bench.classpath) \
 *     io.erasure.audit.join.AuditJoinBenchmark [rows=2000000] [ids=10000000] [repeats=5] \
 *     [formats=JSONL_GZIP,JSONL_ZSTD,PARQUET]
 * </pre>
 */
public final class AuditJoinBenchmark {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** The orders' schema, the identifier typed as the kind compares it. */
    private static BackupSchema schema(IdentifierKind kind) {
        return new BackupSchema(
                List.of(
                        new ColumnSchema("order_id", "uuid"),
                        new ColumnSchema("customer_id", kind == IdentifierKind.NUMERIC ? "bigint" : "text"),
                        new ColumnSchema("created_at", "timestamp"),
                        new ColumnSchema("status", "text"),
                        new ColumnSchema("total", "decimal"),
                        new ColumnSchema("items", "int"),
                        new ColumnSchema("shipping_address", "text"),
                        new ColumnSchema("note", "text")),
                KeyColumns.of(List.of("customer_id"), List.of("order_id")),
                "customer_id");
    }

    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private AuditJoinBenchmark() {}

    public static void main(String[] args) throws IOException {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int ids = args.length > 1 ? Integer.parseInt(args[1]) : 10_000_000;
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        List<BackupFormat> formats = args.length > 3
                ? Arrays.stream(args[3].split(",")).map(BackupFormat::valueOf).toList()
                : List.of(BackupFormat.JSONL_GZIP, BackupFormat.JSONL_ZSTD, BackupFormat.PARQUET);
        System.out.printf(
                Locale.ROOT,
                "AuditJoinBenchmark: %,d rows, %,d deletable identifiers, 1%% matching, best of %d,"
                        + " one thread, rows/s per core = rows / thread CPU time%n",
                rows,
                ids,
                repeats);
        for (IdentifierKind kind : IdentifierKind.values()) {
            run(kind, rows, ids, repeats, formats);
        }
    }

    private static void run(IdentifierKind kind, int rows, int idCount, int repeats, List<BackupFormat> formats)
            throws IOException {
        SplittableRandom random = new SplittableRandom(42);
        long[] numeric = new long[idCount];
        String[] strings = kind == IdentifierKind.STRING ? new String[idCount] : null;
        IdentifierSet set;
        long buildStart = System.nanoTime();
        if (kind == IdentifierKind.NUMERIC) {
            LongIdentifierSet longs = new LongIdentifierSet(idCount, LongIdentifierSet.DEFAULT_LOAD_FACTOR);
            for (int i = 0; i < idCount; i++) {
                numeric[i] = random.nextLong(1, Long.MAX_VALUE);
                longs.add(numeric[i]);
            }
            set = longs;
        } else {
            HashedIdentifierSet hashed = new HashedIdentifierSet(idCount, HashedIdentifierSet.DEFAULT_LOAD_FACTOR);
            long[] h1 = new long[1];
            long[] h2 = new long[1];
            for (int i = 0; i < idCount; i++) {
                strings[i] = randomString(random, 24);
                IdentifierHash.hash(strings[i], h1, h2, 0);
                hashed.add(h1[0], h2[0]);
            }
            set = hashed;
        }
        double buildSeconds = (System.nanoTime() - buildStart) / 1e9;

        ByteArrayOutputStream text = new ByteArrayOutputStream(rows * 330);
        StringBuilder row = new StringBuilder(400);
        long expectedMatches = 0;
        for (int r = 0; r < rows; r++) {
            boolean match = random.nextInt(100) == 0;
            expectedMatches += match ? 1 : 0;
            String id;
            if (kind == IdentifierKind.NUMERIC) {
                id = Long.toString(match ? numeric[random.nextInt(idCount)] : random.nextLong(1, Long.MAX_VALUE));
            } else {
                id = '"' + (match ? strings[random.nextInt(idCount)] : randomString(random, 24)) + '"';
            }
            row.setLength(0);
            row.append("{\"order_id\":\"")
                    .append(new UUID(random.nextLong(), random.nextLong()))
                    .append("\",\"customer_id\":")
                    .append(id)
                    .append(",\"created_at\":\"2024-01-")
                    .append(10 + random.nextInt(20))
                    .append("T0")
                    .append(random.nextInt(10))
                    .append(":12:45.")
                    .append(100_000 + random.nextInt(900_000))
                    .append("Z\",\"status\":\"")
                    .append(random.nextBoolean() ? "SHIPPED" : "DELIVERED")
                    .append("\",\"total\":")
                    .append(random.nextInt(100_000))
                    .append('.')
                    .append(10 + random.nextInt(90))
                    .append(",\"items\":")
                    .append(1 + random.nextInt(9))
                    .append(",\"shipping_address\":\"")
                    .append(randomString(random, 8 + random.nextInt(13)))
                    .append("\",\"note\":\"")
                    .append(randomString(random, 2 + random.nextInt(9)))
                    .append("\",\"@writeTimes\":{\"status\":")
                    .append(1_706_000_000_000_000L + random.nextInt(1 << 30))
                    .append(",\"total\":")
                    .append(1_706_000_000_000_000L + random.nextInt(1 << 30))
                    .append(",\"note\":")
                    .append(1_706_000_000_000_000L + random.nextInt(1 << 30))
                    .append("}}\n");
            text.write(row.toString().getBytes(StandardCharsets.UTF_8));
        }
        byte[] plain = text.toByteArray();
        text = null;
        System.out.printf(
                Locale.ROOT,
                "%n== %s identifiers: set of %,d built in %.1f s, %.1f bytes per id;"
                        + " rows average %.0f bytes, %,d expected matches%n",
                kind,
                set.size(),
                buildSeconds,
                set.bytesPerId(),
                (double) plain.length / rows,
                expectedMatches);

        byte[] parquet = parquet(kind, plain);
        for (BackupFormat format : formats) {
            byte[] stored = format.streamed() ? compress(format, plain) : parquet;
            // the Parquet ceiling reads a file already on disk; the audit's own copy is part of its cost
            Path copy = Files.write(Files.createTempFile("bench-", ".parquet"), stored);
            ManifestPart part = new ManifestPart("part-00000" + format.extension(), rows, Sha256.hex(stored));
            double bestCeiling = 0;
            double bestChecked = 0;
            double bestAudit = 0;
            double bestListed = 0;
            double bestSameColumns = 0;
            double bestPages = 0;
            double[] ratios = new double[repeats];
            long candidates = 0;
            for (int i = 0; i < repeats; i++) {
                // measured in pairs, one right after the other, so both see the same load of the machine
                double ceiling = rowsPerCpuSecond(
                        rows, () -> format.streamed() ? ceiling(format, stored, kind) : parquetCeiling(copy, kind));
                long[] found = new long[1];
                double audit = rowsPerCpuSecond(rows, () -> found[0] = audit(format, stored, part, set));
                if (!format.streamed()) {
                    // what any reader that honours the manifest pays: the part's SHA-256, then the column
                    bestChecked = Math.max(
                            bestChecked, rowsPerCpuSecond(rows, () -> Sha256.hex(stored) + parquetCeiling(copy, kind)));
                    // the ceiling: a scan of the same columns as the join reads (identifier and key), no join
                    bestSameColumns = Math.max(
                            bestSameColumns,
                            rowsPerCpuSecond(rows, () -> parquetScan(copy, kind, List.of("customer_id", "order_id"))));
                    // an RDS export's file: no SHA-256 to check (its ETag pins it), only the columns needed fetched
                    long[] listed = new long[1];
                    bestListed = Math.max(bestListed, rowsPerCpuSecond(rows, () -> listed[0] = listed(stored, set)));
                    // the strictest ceiling: the identifier column alone, read by the join's own page reader
                    bestPages = Math.max(bestPages, rowsPerCpuSecond(rows, () -> pageScan(stored, kind)));
                    if (listed[0] != expectedMatches) {
                        throw new IllegalStateException(
                                "the listed join found " + listed[0] + " candidates, expected " + expectedMatches);
                    }
                }
                bestCeiling = Math.max(bestCeiling, ceiling);
                bestAudit = Math.max(bestAudit, audit);
                ratios[i] = audit / ceiling;
                candidates = found[0];
            }
            if (candidates != expectedMatches) {
                throw new IllegalStateException(
                        "audit found " + candidates + " candidates, expected " + expectedMatches);
            }
            Files.delete(copy);
            Arrays.sort(ratios);
            System.out.printf(
                    Locale.ROOT,
                    "%s %s: %.1f MB stored (%.0f B/row); ceiling %.2f M rows/s per core;"
                            + " audit %.2f M rows/s per core = %.0f %% of the ceiling (median of paired runs %.0f %%);"
                            + " %,d candidates%n",
                    kind,
                    format,
                    stored.length / 1e6,
                    (double) stored.length / rows,
                    bestCeiling / 1e6,
                    bestAudit / 1e6,
                    100 * bestAudit / bestCeiling,
                    100 * ratios[repeats / 2],
                    candidates);
            if (!format.streamed()) {
                System.out.printf(
                        Locale.ROOT,
                        "%s %s: with the part's SHA-256 checked first the ceiling is %.2f M rows/s per core;"
                                + " the audit is %.0f %% of it; an export's file (read by ranges, no SHA-256) is joined"
                                + " at %.2f M rows/s per core, %.0f %% of the bare ceiling%n"
                                + "%s %s: a scan of the same columns as the join (identifier and key), no join:"
                                + " %.2f M rows/s per core; the export's join is %.0f %% of it, the manifest's"
                                + " (with its SHA-256) %.0f %%%n",
                        kind,
                        format,
                        bestChecked / 1e6,
                        100 * bestAudit / bestChecked,
                        bestListed / 1e6,
                        100 * bestListed / bestCeiling,
                        kind,
                        format,
                        bestSameColumns / 1e6,
                        100 * bestListed / bestSameColumns,
                        100 * bestAudit / bestSameColumns);
                System.out.printf(
                        Locale.ROOT,
                        "%s %s: the identifier column alone, read by the join's own page reader (no lookups):"
                                + " %.2f M rows/s per core; the export's join is %.0f %% of it%n",
                        kind,
                        format,
                        bestPages / 1e6,
                        100 * bestListed / bestPages);
            }
        }
    }

    /** Decompress and read only the identifier field of each row. */
    private static long ceiling(BackupFormat format, byte[] stored, IdentifierKind kind) throws IOException {
        JsonRecordScanner scanner = new JsonRecordScanner(List.of("customer_id"));
        long sum = 0;
        try (InputStream in = PartCompression.decompress(format, new ByteArrayInputStream(stored))) {
            RecordBuffer records = new RecordBuffer(in, scanner);
            while (records.refill()) {
                while (records.next()) {
                    // numeric: parse the value; string: its bytes are located, nothing more
                    sum += kind == IdentifierKind.NUMERIC
                            ? Bytes.parseLong(records.bytes(), scanner.start(0), scanner.end(0))
                            : scanner.end(0) - scanner.start(0);
                }
            }
        }
        return sum;
    }

    private static long audit(BackupFormat format, byte[] stored, ManifestPart part, IdentifierSet set)
            throws IOException {
        BackupSchema schema = schema(set.kind());
        PartJoiner join = PartJoiner.of(format, schema, schema.keyColumns().primaryKey(), "customer_id", set);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CandidateFileWriter writer = new CandidateFileWriter(out)) {
            return join.join(new ByteArrayInputStream(stored), part, writer).candidates();
        }
    }

    /**
     * The join of an RDS export's Parquet file, read where it lies by ranges (here copied out of memory, as a ranged
     * GET's body is): no SHA-256, no copy of the whole file.
     */
    private static long listed(byte[] stored, IdentifierSet set) throws IOException {
        BackupSchema schema = schema(set.kind());
        ParquetPartJoin join = new ParquetPartJoin(schema, schema.keyColumns().primaryKey(), "customer_id", set);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CandidateFileWriter writer = new CandidateFileWriter(out)) {
            RangedObject file = new BytesObject("part.parquet", stored);
            return join.joinRanged(file, writer).candidates();
        }
    }

    /** Read only the identifier column of the stored Parquet file, by {@link IdentifierPages}, as the join reads it. */
    private static long pageScan(byte[] stored, IdentifierKind kind) throws IOException {
        long[] a = new long[PartJoin.CHUNK_ROWS];
        long[] b = new long[PartJoin.CHUNK_ROWS];
        boolean[] present = new boolean[PartJoin.CHUNK_ROWS];
        long sum = 0;
        try (ParquetPart file = ParquetPart.ranged(new BytesObject("part.parquet", stored))) {
            ParquetColumn identifier = file.column(
                    "customer_id", kind == IdentifierKind.NUMERIC ? "bigint" : "text", "the identifier column");
            for (int group = 0; group < file.rowGroups(); group++) {
                IdentifierPages pages =
                        Objects.requireNonNull(file.identifierPages(group, identifier, kind, PartJoin.CHUNK_ROWS));
                long rows = file.rowCount(group);
                for (long start = 0; start < rows; start += PartJoin.CHUNK_ROWS) {
                    int n = (int) Math.min(PartJoin.CHUNK_ROWS, rows - start);
                    pages.read(a, b, present, n);
                    sum += a[n - 1] + b[0];
                }
            }
        }
        return sum;
    }

    /** Read only the identifier column of the stored Parquet file. */
    private static long parquetCeiling(Path file, IdentifierKind kind) throws IOException {
        return parquetScan(file, kind, List.of("customer_id"));
    }

    /**
     * Read every value of {@code columns} (the identifier first) of the stored Parquet file: with the key columns too,
     * the columns the join reads, scanned with no join.
     */
    private static long parquetScan(Path file, IdentifierKind kind, List<String> columns) throws IOException {
        long sum = 0;
        try (ParquetFileReader reader = ParquetFileReader.open(
                new LocalInputFile(file),
                ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
            MessageType schema = reader.getFileMetaData().getSchema();
            MessageType projection = new MessageType(
                    schema.getName(), columns.stream().map(schema::getType).toList());
            reader.setRequestedSchema(projection);
            PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                ColumnReadStoreImpl store = new ColumnReadStoreImpl(
                        pages,
                        new GroupConverter() {
                            @Override
                            public Converter getConverter(int fieldIndex) {
                                return new PrimitiveConverter() {};
                            }

                            @Override
                            public void start() {}

                            @Override
                            public void end() {}
                        },
                        projection,
                        reader.getFileMetaData().getCreatedBy());
                ColumnReader[] readers = new ColumnReader[columns.size()];
                for (int c = 0; c < readers.length; c++) {
                    readers[c] = store.getColumnReader(projection.getColumns().get(c));
                }
                for (long r = pages.getRowCount(); r > 0; r--) {
                    sum += kind == IdentifierKind.NUMERIC
                            ? readers[0].getLong()
                            : readers[0].getBinary().length();
                    readers[0].consume();
                    for (int c = 1; c < readers.length; c++) {
                        sum += readers[c].getBinary().length();
                        readers[c].consume();
                    }
                }
            }
        }
        return sum;
    }

    /** The JSON rows as a team's Parquet export: snappy, default row groups and pages. */
    private static byte[] parquet(IdentifierKind kind, byte[] jsonLines) throws IOException {
        MessageType type = MessageTypeParser.parseMessageType("message orders {"
                + " required fixed_len_byte_array(16) order_id (UUID);"
                + (kind == IdentifierKind.NUMERIC
                        ? " required int64 customer_id;"
                        : " required binary customer_id (STRING);")
                + " required binary created_at (STRING); required binary status (STRING);"
                + " required int64 total (DECIMAL(12,2)); required int32 items;"
                + " required binary shipping_address (STRING); required binary note (STRING); }");
        Path file = Files.createTempFile("bench-", ".parquet");
        Files.delete(file);
        SimpleGroupFactory groups = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                        .withConf(new PlainParquetConfiguration())
                        .withType(type)
                        .withCompressionCodec(CompressionCodecName.SNAPPY)
                        .build();
                BufferedReader lines = new BufferedReader(
                        new InputStreamReader(new ByteArrayInputStream(jsonLines), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                JsonNode row = BackupJson.MAPPER.readTree(line);
                UUID order = UUID.fromString(row.get("order_id").stringValue());
                ByteBuffer uuid = ByteBuffer.allocate(16)
                        .putLong(order.getMostSignificantBits())
                        .putLong(order.getLeastSignificantBits());
                Group group = groups.newGroup().append("order_id", Binary.fromConstantByteArray(uuid.array()));
                if (kind == IdentifierKind.NUMERIC) {
                    group.append("customer_id", row.get("customer_id").longValue());
                } else {
                    group.append("customer_id", row.get("customer_id").stringValue());
                }
                group.append("created_at", row.get("created_at").stringValue())
                        .append("status", row.get("status").stringValue())
                        .append(
                                "total",
                                row.get("total")
                                        .decimalValue()
                                        .movePointRight(2)
                                        .longValueExact())
                        .append("items", row.get("items").intValue())
                        .append("shipping_address", row.get("shipping_address").stringValue())
                        .append("note", row.get("note").stringValue());
                writer.write(group);
            }
        }
        try {
            return Files.readAllBytes(file);
        } finally {
            Files.delete(file);
        }
    }

    private static byte[] compress(BackupFormat format, byte[] plain) throws IOException {
        ByteArrayOutputStream stored = new ByteArrayOutputStream(plain.length / 4);
        try (OutputStream out = PartCompression.compress(format, stored)) {
            out.write(plain);
        }
        return stored.toByteArray();
    }

    private interface Work {
        Object run() throws IOException;
    }

    private static double rowsPerCpuSecond(int rows, Work work) throws IOException {
        long cpu = THREADS.getCurrentThreadCpuTime();
        work.run();
        return rows / ((THREADS.getCurrentThreadCpuTime() - cpu) / 1e9);
    }

    private static String randomString(SplittableRandom random, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(chars);
    }
}
