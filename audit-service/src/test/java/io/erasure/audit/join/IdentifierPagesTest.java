package io.erasure.audit.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.audit.testdata.GeneratedData.Part;
import io.erasure.audit.testdata.ParquetParts;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.identifiers.IdentifierKind;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.dataset.KeyColumns;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.LongUnaryOperator;
import java.util.stream.Stream;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The identifier column read a page at a time gives exactly what reading it value by value gives, for every way a
 * writer lays it out: dictionary pages, a dictionary given up half way for PLAIN pages, PLAIN only; data pages V1
 * and V2; required and optional (with nulls) columns; text, signed and unsigned integers.
 */
class IdentifierPagesTest {

    private static final int ROWS = 9_000;

    /**
     * The customer of row {@code i}: of few distinct values (a dictionary holds them all) or one per row (it gives
     * up); a negative one now and then, and for 64-bit columns Long.MIN_VALUE (which is no identifier) once.
     */
    private static long customer(int i, boolean few, boolean signed, boolean int64) {
        if (signed && i % 1_000 == 999) {
            return -i;
        }
        if (int64 && i == 4_999) {
            return Long.MIN_VALUE;
        }
        return few ? i % 300 : (long) i * 7_919 + 13;
    }

    static Stream<Arguments> layouts() {
        List<Arguments> all = new ArrayList<>();
        String[] columns = {
            "optional binary customer (STRING)",
            "required binary customer (STRING)",
            "optional int64 customer",
            "required int32 customer",
            "optional int32 customer (INTEGER(32,false))"
        };
        for (String column : columns) {
            for (WriterVersion version : WriterVersion.values()) {
                for (String dictionary : List.of("few values", "too many values", "off")) {
                    all.add(Arguments.of(column, version, dictionary, CompressionCodecName.SNAPPY));
                }
            }
        }
        // text kept from a PLAIN page must stay its own after the next page is decompressed, whatever the codec
        for (CompressionCodecName codec : List.of(
                CompressionCodecName.UNCOMPRESSED,
                CompressionCodecName.GZIP,
                CompressionCodecName.ZSTD,
                CompressionCodecName.LZ4_RAW)) {
            all.add(Arguments.of(columns[0], WriterVersion.PARQUET_1_0, "too many values", codec));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, {1}, dictionary {2}, {3}")
    @MethodSource("layouts")
    void pagesGiveWhatValuesGive(String column, WriterVersion version, String dictionary, CompressionCodecName codec)
            throws IOException {
        boolean text = column.contains("binary");
        boolean optional = column.startsWith("optional");
        boolean unsigned = column.contains("false");
        boolean int64 = column.contains("int64");
        boolean few = dictionary.equals("few values");
        MessageType type = MessageTypeParser.parseMessageType(
                "message export { " + column + "; required binary order_id (STRING); }");
        // unsigned values beyond Integer.MAX_VALUE are written as negative ints
        LongUnaryOperator stored = v -> unsigned ? v + 4_000_000_000L : v;
        // text: "c-<customer>", or "" (never deletable) where a number column holds a negative one
        IntFunction<String> textOf = i -> {
            long value = customer(i, few, true, false);
            return value < 0 ? "" : "c-" + value;
        };
        Part part = ParquetParts.write(
                "part-00000.parquet",
                type,
                ROWS,
                (Group g, int i) -> {
                    if (!optional || i % 7 != 3) {
                        long value = stored.applyAsLong(customer(i, few, !unsigned, int64));
                        if (text) {
                            g.append("customer", textOf.apply(i));
                        } else if (int64) {
                            g.append("customer", value);
                        } else {
                            g.append("customer", (int) value);
                        }
                    }
                    g.append("order_id", "o-" + i);
                },
                builder -> {
                    builder.withWriterVersion(version)
                            .withDictionaryEncoding(!dictionary.equals("off"))
                            .withCompressionCodec(codec);
                    if (dictionary.equals("too many values")) {
                        builder.withDictionaryPageSize(2 * 1024);
                    }
                });
        // every 37th customer is deletable, and Long.MIN_VALUE, which no row may match
        Set<String> texts = new HashSet<>();
        Set<Long> numbers = new HashSet<>(Set.of(Long.MIN_VALUE));
        Map<String, String> expected = new HashMap<>();
        for (int i = 0; i < ROWS; i++) {
            long value = customer(i, few, !unsigned, int64);
            String identifier = text ? textOf.apply(i) : String.valueOf(stored.applyAsLong(value));
            if (value % 37 == 0 && value != Long.MIN_VALUE && !identifier.isEmpty()) {
                texts.add(identifier);
                numbers.add(stored.applyAsLong(value));
                if (!optional || i % 7 != 3) {
                    expected.put("o-" + i, identifier);
                }
            }
        }
        IdentifierSet set = text ? PartJoinTest.stringSet(texts) : PartJoinTest.numericSet(numbers);
        BackupSchema schema = new BackupSchema(
                List.of(new ColumnSchema("customer", text ? "text" : "bigint"), new ColumnSchema("order_id", "text")),
                KeyColumns.of(List.of("customer"), List.of("order_id")),
                "customer");

        List<Candidate> byPages = join(part, schema, set, true);
        List<Candidate> byValues = join(part, schema, set, false);

        assertThat(byPages).containsExactlyElementsOf(byValues);
        Map<String, String> found = new HashMap<>();
        byPages.forEach(c -> found.put((String) c.key().get("order_id"), c.identifier()));
        assertThat(found).as("each order with its own customer").isEqualTo(expected);
        // PLAIN and dictionary pages are read a page at a time; V2's DELTA encodings value by value
        boolean delta = version == WriterVersion.PARQUET_2_0 && !few;
        try (ParquetPart file = ParquetPart.ranged(new BytesObject("part", part.bytes()))) {
            ParquetColumn customer = file.column("customer", text ? "text" : "bigint", "the identifier column");
            IdentifierKind kind = text ? IdentifierKind.STRING : IdentifierKind.NUMERIC;
            assertThat(file.identifierPages(0, customer, kind, PartJoin.CHUNK_ROWS) != null)
                    .as("read by pages")
                    .isEqualTo(!delta);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("damaged")
    void aDamagedPageFailsNamingTheColumnAndPart(String what, byte[] bytes) {
        IdentifierSet set = PartJoinTest.stringSet(Set.of("c-1"));
        BackupSchema schema = new BackupSchema(
                List.of(new ColumnSchema("customer", "text"), new ColumnSchema("order_id", "text")),
                KeyColumns.of(List.of("customer"), List.of("order_id")),
                "customer");

        assertThatThrownBy(() -> new ParquetPartJoin(schema, List.of("customer", "order_id"), "customer", set)
                        .joinRanged(new BytesObject("damaged.parquet", bytes), c -> {}))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("column 'customer' of part damaged.parquet has a value of 1073741827 bytes")
                .hasMessageContaining("the file is damaged");
    }

    static Stream<Arguments> damaged() throws IOException {
        MessageType type = MessageTypeParser.parseMessageType(
                "message export { required binary customer (STRING); required binary order_id (STRING); }");
        Part part = ParquetParts.write(
                "part-00000.parquet",
                type,
                200,
                (Group g, int i) -> g.append("customer", "c-" + i).append("order_id", "o-" + i),
                builder ->
                        builder.withDictionaryEncoding(false).withCompressionCodec(CompressionCodecName.UNCOMPRESSED));
        byte[] bytes = part.bytes();
        // the first value's length prefix ("c-0" is 3 bytes long) made huge: it would run past the page
        byte[] huge = bytes.clone();
        int at = indexOf(huge, new byte[] {3, 0, 0, 0, 'c', '-', '0'});
        huge[at + 3] = 0x40;
        return Stream.of(Arguments.of("a value longer than its page", huge));
    }

    private static int indexOf(byte[] bytes, byte[] wanted) {
        outer:
        for (int i = 0; i + wanted.length <= bytes.length; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (bytes[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalStateException("not found");
    }

    private static List<Candidate> join(Part part, BackupSchema schema, IdentifierSet set, boolean byPages)
            throws IOException {
        List<Candidate> found = new ArrayList<>();
        new ParquetPartJoin(
                        schema, List.of("customer", "order_id"), "customer", set, ParquetPart.IN_MEMORY_BYTES, byPages)
                .joinRanged(new BytesObject("part-00000.parquet", part.bytes()), found::add);
        return found;
    }
}
