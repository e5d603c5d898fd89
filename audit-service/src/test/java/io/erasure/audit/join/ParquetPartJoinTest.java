package io.erasure.audit.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.audit.scratch.ScratchSpace;
import io.erasure.audit.testdata.GeneratedData;
import io.erasure.audit.testdata.GeneratedData.Part;
import io.erasure.audit.testdata.ParquetParts;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.BackupRow;
import io.erasure.backup.format.Sha256;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.dataset.KeyColumns;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.parquet.example.data.simple.NanoTime;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

/** Parquet parts: type mapping, and every way a part can disagree with what the audit needs, named. */
class ParquetPartJoinTest {

    private static final String TYPES = """
            message export {
              optional fixed_len_byte_array(16) account (UUID);
              required int64 placed (TIMESTAMP(MILLIS,true));
              optional int32 day (DATE);
              optional int64 amount (DECIMAL(12,2));
              optional int64 seq (INTEGER(64,false));
              optional int64 local (TIMESTAMP(MICROS,false));
              optional int96 legacy;
              optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
            }""";

    /** The manifest's types of the columns these tests read; any other column is declared text. */
    private static final Map<String, String> DECLARED = Map.of(
            "account", "uuid",
            "placed", "timestamp",
            "day", "date",
            "amount", "numeric(12,2)",
            "seq", "bigint",
            "local", "timestamp",
            "legacy", "timestamp",
            "tags", "list<text>",
            "customer_id", "bigint",
            "started", "bigint");

    private static final UUID GONE = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID KEPT = UUID.fromString("00000000-0000-0000-0000-00000000000b");

    @Test
    void keyValuesAreSpelledAsThePlatformsOwnBackupsSpellThem() throws IOException {
        Part part = write(MessageTypeParser.parseMessageType(TYPES), 5_000, (g, i) -> {
            g.append("account", uuid(i % 2 == 0 ? GONE : KEPT));
            g.append("placed", 1_706_666_400_000L + i);
            g.append("day", 19_753 + i % 3);
            g.append("amount", 123_456L + i);
            g.append("seq", i == 0 ? -1L : (long) i);
            g.append("local", 1_706_666_400_000_000L);
            g.append("legacy", new NanoTime(2_460_000, 0L).toBinary());
            g.addGroup("tags").addGroup("list").append("element", "t" + i);
        });

        List<Candidate> found =
                join(part, List.of("account", "placed", "day", "amount", "seq", "local"), "account", uuids(GONE));

        assertThat(found).hasSize(2_500);
        Map<String, Object> first = new LinkedHashMap<>();
        first.put("account", GONE.toString());
        first.put("placed", "2024-01-31T02:00:00Z");
        first.put("day", "2024-01-31");
        first.put("amount", new BigDecimal("1234.56"));
        first.put("seq", new BigInteger("18446744073709551615"));
        first.put("local", "2024-01-31T02:00:00");
        assertThat(found.get(0)).isEqualTo(new Candidate(first, GONE.toString(), null));
        assertThat(found.get(1).key())
                .containsEntry("placed", "2024-01-31T02:00:00.002Z")
                .containsEntry("seq", 2L);
        // neither the INT96 nor the list column, which have no mapping, was read
    }

    @Test
    void aMissingIdentifierColumnFailsNamingItAndTheColumnsThePartHas() throws IOException {
        Part part = write(MessageTypeParser.parseMessageType(TYPES), 10, (g, i) -> g.append("placed", (long) i));

        assertThatThrownBy(() -> join(part, List.of("placed"), "customer", uuids(GONE)))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("part part-00000.parquet has no column 'customer' (the dataset's identifier column);"
                        + " its columns are [account, placed, day, amount, seq, local, legacy, tags]");
    }

    @Test
    void anUnmappableOrNestedKeyColumnFailsNamingIt() throws IOException {
        Part part = write(MessageTypeParser.parseMessageType(TYPES), 10, (g, i) -> g.append("placed", (long) i));

        assertThatThrownBy(() -> join(part, List.of("legacy"), "account", uuids(GONE)))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith("column 'legacy' of part part-00000.parquet is optional int96 legacy, a Parquet"
                        + " type the audit cannot map (INT96 is a legacy timestamp");
        assertThatThrownBy(() -> join(part, List.of("tags"), "account", uuids(GONE)))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("column 'tags' (a primary key column) of part part-00000.parquet is a group; only a flat"
                        + " column can be an identifier or key column");
    }

    @Test
    void textStoredWhereTheManifestPromisesIntegerIdentifiersIsRefused() throws IOException {
        MessageType type = MessageTypeParser.parseMessageType("message m { optional binary customer_id (STRING); }");
        Part part = write(type, 10, (g, i) -> g.append("customer_id", "c" + i));

        assertThatThrownBy(() -> join(part, List.of("customer_id"), "customer_id", PartJoinTest.numericSet(Set.of(1L))))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("column 'customer_id' of part part-00000.parquet is optional binary customer_id (STRING),"
                        + " which cannot hold the manifest's type 'bigint' (an INT32 or INT64 integer); fix the"
                        + " manifest's schema or the export");
    }

    @Test
    void textWrittenAsPlainBinaryIsReadAsTextWhereTheManifestSaysText() throws IOException {
        MessageType type = MessageTypeParser.parseMessageType(
                "message m { optional binary member; optional binary device; required int64 started; }");
        Part part = write(type, 50, (g, i) -> {
            g.append("member", Binary.fromString(GeneratedData.account(i % 10)));
            g.append("device", Binary.fromString("dev-" + i));
            g.append("started", (long) i);
        });

        List<Candidate> found = join(
                part,
                List.of("member", "device", "started"),
                "member",
                PartJoinTest.stringSet(Set.of(GeneratedData.account(7))));

        assertThat(found).hasSize(5);
        assertThat(found.get(0).identifier()).isEqualTo("acct-\"7\"");
        assertThat(found.get(0).key()).containsEntry("device", "dev-7").containsEntry("started", 7L);
    }

    @Test
    void aLocalTimestampCannotSayWhenAnIdentifierBecameDeletable() {
        MessageType type = MessageTypeParser.parseMessageType(
                "message m { optional int64 deleted_at (TIMESTAMP(MICROS,false)); }");
        ParquetColumn column = ParquetColumn.of(
                "part-00000.parquet",
                type.getType("deleted_at").asPrimitiveType(),
                type.getColumnDescription(new String[] {"deleted_at"}),
                "timestamp");

        assertThatThrownBy(() -> column.requireTimestamp("the identifier source's deletable-since column"))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("it must be a TIMESTAMP adjusted to UTC");
    }

    @Test
    void integerIdentifiersMatchTextIdentifiersByTheirDigits() throws IOException {
        MessageType type = MessageTypeParser.parseMessageType("message m { optional int32 customer_id; }");
        Part part = write(type, 100, (g, i) -> {
            if (i % 10 != 0) {
                g.append("customer_id", i);
            }
        });

        List<Candidate> found =
                join(part, List.of("customer_id"), "customer_id", PartJoinTest.stringSet(Set.of("7", "10")));

        assertThat(found).containsExactly(new Candidate(Map.of("customer_id", 7L), "7", null));
    }

    @Test
    void aDamagedPartHandsOutNoCandidateAndNamesTheChecksum() throws IOException {
        Part part = ParquetParts.part(4, GeneratedData.ORDERS, GeneratedData.orders(3_000, 10, 21));
        byte[] damaged = part.bytes().clone();
        damaged[damaged.length / 3] ^= 0x10;
        List<Candidate> found = new ArrayList<>();

        assertThatThrownBy(() -> new ParquetPartJoin(
                                GeneratedData.ORDERS,
                                List.of("customer_id", "order_id"),
                                "customer_id",
                                PartJoinTest.numericSet(Set.of(1L)))
                        .join(new ByteArrayInputStream(damaged), part.entry(), found::add))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith("checksum mismatch for part part-00004.parquet");
        assertThat(found).isEmpty();
    }

    @Test
    void bytesThatMatchTheirChecksumButAreNotParquetAreRefused() {
        byte[] bytes = "{\"customer_id\":1}\n".getBytes(StandardCharsets.UTF_8);
        Part part = new Part(bytes, new ManifestPart("part-00000.parquet", 1, Sha256.hex(bytes)));

        assertThatThrownBy(() -> join(part, List.of("customer_id"), "customer_id", PartJoinTest.numericSet(Set.of(1L))))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith(
                        "part part-00000.parquet matches its manifest's SHA-256 but is not a readable Parquet file");
    }

    @Test
    void aRowCountOtherThanTheManifestsIsCorruption() throws IOException {
        List<BackupRow> rows = GeneratedData.orders(100, 10, 22);
        Part part = ParquetParts.part(1, GeneratedData.ORDERS, rows);
        Part wrong = new Part(
                part.bytes(),
                new ManifestPart(part.entry().name(), 101, part.entry().sha256()));

        assertThatThrownBy(
                        () -> join(wrong, List.of("customer_id"), "customer_id", PartJoinTest.numericSet(Set.of(1L))))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("part part-00001.parquet has 100 rows but its manifest says 101");
    }

    @Test
    void aLargePartIsReadFromATemporaryFileDeletedWhateverHappens() throws IOException {
        Path scratch = ScratchSpace.ofThisProcess().folder();
        long before = parts(scratch);
        List<BackupRow> rows = GeneratedData.orders(3_000, 10, 23);
        Part part = ParquetParts.part(0, GeneratedData.ORDERS, rows);
        IdentifierSet set = PartJoinTest.numericSet(Set.of(1L, 2L));
        List<Candidate> inMemory = join(part, List.of("customer_id", "order_id"), "customer_id", set);
        int small = part.bytes().length / 3;

        List<Candidate> fromFile = new ArrayList<>();
        new ParquetPartJoin(GeneratedData.ORDERS, List.of("customer_id", "order_id"), "customer_id", set, small)
                .join(new ByteArrayInputStream(part.bytes()), part.entry(), fromFile::add);
        assertThatThrownBy(() -> new ParquetPartJoin(GeneratedData.ORDERS, List.of("nope"), "customer_id", set, small)
                        .join(new ByteArrayInputStream(part.bytes()), part.entry(), c -> {}))
                .isInstanceOf(BackupIntegrityException.class);

        assertThat(inMemory).hasSizeGreaterThan(300);
        assertThat(fromFile).isEqualTo(inMemory);
        assertThat(parts(scratch)).isEqualTo(before);
    }

    private static long parts(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("part-"))
                    .count();
        }
    }

    @Test
    void aFileReadWhereItLiesGivesTheSameCandidatesFetchingOnlyTheColumnsTheJoinReads() throws IOException {
        // a wide column the join never reads, so that what is fetched shows the projection
        MessageType type = MessageTypeParser.parseMessageType("message export { optional int64 customer_id;"
                + " optional binary order_id (STRING); optional binary payload (STRING); }");
        Part part = write(type, 6_000, (g, i) -> {
            g.append("customer_id", (long) (1 + i % 40));
            g.append("order_id", "o-" + i);
            g.append("payload", UUID.randomUUID().toString().repeat(4));
        });
        BackupSchema schema = new BackupSchema(
                List.of(new ColumnSchema("customer_id", "bigint"), new ColumnSchema("order_id", "text")),
                KeyColumns.of(List.of("customer_id"), List.of("order_id")),
                "customer_id");
        IdentifierSet set = PartJoinTest.numericSet(Set.of(3L, 17L));
        List<Candidate> whole = new ArrayList<>();
        new ParquetPartJoin(schema, List.of("customer_id", "order_id"), "customer_id", set)
                .join(new ByteArrayInputStream(part.bytes()), part.entry(), whole::add);
        BytesObject object = new BytesObject("s3://bucket/export/part-00000.gz.parquet", part.bytes());
        List<Candidate> ranged = new ArrayList<>();

        JoinResult result = new ParquetPartJoin(schema, List.of("customer_id", "order_id"), "customer_id", set)
                .joinRanged(object, ranged::add);

        assertThat(result.rowsScanned()).isEqualTo(6_000);
        assertThat(ranged).hasSize(300).containsExactlyElementsOf(whole);
        // the payload column is most of the file and is never fetched
        assertThat(object.fetchedBytes()).isLessThan(part.bytes().length / 3);
        assertThat(object.reads()).isGreaterThan(2);
    }

    @Test
    void aMatchingRowsKeyIsItsOwnWhereverTheRowLies() throws IOException {
        // matches in a run, alone, and on each row group's first and last rows (parquet-java 1.18.2 can give the last
        // row asked for another row's value, #3747); every 13th order id is null, and never a match
        Set<Integer> placed = new TreeSet<>();
        for (int i = 1_000; i < 1_020; i++) {
            placed.add(i);
        }
        placed.add(4_500);
        Part first = orders(placed);
        try (ParquetPart file = ParquetPart.ranged(new BytesObject("first.parquet", first.bytes()))) {
            long start = 0;
            for (int group = 0; group < file.rowGroups(); group++) {
                placed.add((int) start);
                start += file.rowCount(group);
                placed.add((int) start - 1);
            }
            placed.removeIf(i -> i % 13 == 0);
            assertThat(file.rowGroups()).as("row groups").isGreaterThan(3);
        }
        // every value is of fixed size and the nulls are where they were, so the row groups are too
        Part part = orders(placed);
        assertThat(rowGroups(part)).isEqualTo(rowGroups(first));
        assertThat(placed).as("each row group's last row but one or two").hasSizeGreaterThan(21 + 5);
        BackupSchema schema = new BackupSchema(
                List.of(new ColumnSchema("customer_id", "bigint"), new ColumnSchema("order_id", "text")),
                KeyColumns.of(List.of("customer_id"), List.of("order_id")),
                "customer_id");
        List<Candidate> found = new ArrayList<>();

        new ParquetPartJoin(
                        schema, List.of("customer_id", "order_id"), "customer_id", PartJoinTest.numericSet(Set.of(7L)))
                .joinRanged(new BytesObject("s3://bucket/export/part-00000.parquet", part.bytes()), found::add);

        assertThat(found)
                .extracting(c -> (String) c.key().get("order_id"))
                .containsExactlyElementsOf(
                        placed.stream().map(ParquetPartJoinTest::orderId).toList());
        assertThat(found).extracting(Candidate::identifier).containsOnly("7");
    }

    /** 6,000 orders, of customer 7 where {@code placed}, of fixed-size values, in several row groups. */
    private static Part orders(Set<Integer> placed) throws IOException {
        MessageType type = MessageTypeParser.parseMessageType("message export { required int64 customer_id;"
                + " optional binary order_id (STRING); required binary note (STRING); }");
        return ParquetParts.write(
                "part-00000.parquet",
                type,
                6_000,
                (g, i) -> {
                    g.append("customer_id", placed.contains(i) ? 7L : 100L + i);
                    if (i % 13 != 0) {
                        g.append("order_id", orderId(i));
                    }
                    g.append("note", UUID.randomUUID().toString());
                },
                builder ->
                        builder.withDictionaryEncoding(false).withCompressionCodec(CompressionCodecName.UNCOMPRESSED));
    }

    private static List<Long> rowGroups(Part part) throws IOException {
        List<Long> rows = new ArrayList<>();
        try (ParquetPart file = ParquetPart.ranged(new BytesObject("part.parquet", part.bytes()))) {
            for (int group = 0; group < file.rowGroups(); group++) {
                rows.add(file.rowCount(group));
            }
        }
        return rows;
    }

    private static String orderId(int i) {
        return String.format(Locale.ROOT, "o-%05d-", i)
                + UUID.nameUUIDFromBytes(new byte[] {(byte) i, (byte) (i >> 8)});
    }

    @Test
    void aFileShorterThanItsFooterSaysIsRefusedAsNotParquet() throws IOException {
        Part part = ParquetParts.part(0, GeneratedData.ORDERS, GeneratedData.orders(500, 10, 3));
        byte[] cut = Arrays.copyOf(part.bytes(), part.bytes().length / 2);
        BytesObject object = new BytesObject("s3://bucket/export/cut.parquet", cut);

        assertThatThrownBy(() -> new ParquetPartJoin(
                                GeneratedData.ORDERS,
                                List.of("customer_id", "order_id"),
                                "customer_id",
                                PartJoinTest.numericSet(Set.of(1L)))
                        .joinRanged(object, c -> {}))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith(
                        "part s3://bucket/export/cut.parquet is the object planned but is not a readable"
                                + " Parquet file");
    }

    private static Part write(MessageType type, int rows, ParquetParts.Row row) throws IOException {
        return ParquetParts.write("part-00000.parquet", type, rows, row);
    }

    private static List<Candidate> join(Part part, List<String> keys, String identifier, IdentifierSet set)
            throws IOException {
        List<Candidate> found = new ArrayList<>();
        List<ColumnSchema> columns = new ArrayList<>();
        for (String column : new LinkedHashSet<>(concat(identifier, keys))) {
            columns.add(new ColumnSchema(column, DECLARED.getOrDefault(column, "text")));
        }
        BackupSchema schema = new BackupSchema(columns, KeyColumns.of(keys, List.of()), identifier);
        JoinResult result = new ParquetPartJoin(schema, keys, identifier, set)
                .join(new ByteArrayInputStream(part.bytes()), part.entry(), found::add);
        assertThat(result.rowsScanned()).isEqualTo(part.entry().rowCount());
        assertThat(result.candidates()).isEqualTo(found.size());
        return found;
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    private static IdentifierSet uuids(UUID... ids) {
        Set<String> text = new HashSet<>();
        for (UUID id : ids) {
            text.add(id.toString());
        }
        return PartJoinTest.stringSet(text);
    }

    private static Binary uuid(UUID id) {
        ByteBuffer bytes = ByteBuffer.allocate(16);
        bytes.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        return Binary.fromConstantByteArray(bytes.array());
    }
}
