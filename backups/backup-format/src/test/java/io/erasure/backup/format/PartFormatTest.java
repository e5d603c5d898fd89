package io.erasure.backup.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.KeyColumns;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PartFormatTest {

    static final BackupSchema SCHEMA = new BackupSchema(
            List.of(
                    new ColumnSchema("customer_id", "bigint"),
                    new ColumnSchema("order_id", "text"),
                    new ColumnSchema("total", "decimal"),
                    new ColumnSchema("note", "text"),
                    new ColumnSchema("paid", "boolean")),
            KeyColumns.of(List.of("customer_id"), List.of("order_id")),
            "customer_id");
    static final List<String> COLUMNS = List.of("customer_id", "order_id", "total", "note", "paid");

    static List<BackupRow> rows() {
        List<BackupRow> rows = new ArrayList<>();
        String[] notes = {"plain", "comma, and \"quotes\"", "two\nlines", "", null, "ünïcødé ✓", "back\\slash"};
        for (int i = 0; i < 50; i++) {
            Map<String, Object> values = new LinkedHashMap<>();
            values.put("customer_id", 1_000_000_000_000L + i);
            values.put("order_id", "o-" + i);
            values.put("total", new BigDecimal(i + ".25"));
            values.put("note", notes[i % notes.length]);
            values.put("paid", i % 2 == 0);
            Map<String, Long> writeTimes = new LinkedHashMap<>();
            writeTimes.put("total", 1_700_000_000_000_000L + i);
            writeTimes.put("note", 1_700_000_000_000_001L + i);
            rows.add(new BackupRow(values, writeTimes));
        }
        return rows;
    }

    static byte[] write(BackupFormat format, List<BackupRow> rows, ManifestPart[] entry) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PartWriter writer =
                PartWriter.toStream(out, "part-00000" + format.extension(), format, COLUMNS, List.of("total", "note"));
        for (BackupRow row : rows) {
            writer.write(row);
        }
        entry[0] = writer.finish();
        return out.toByteArray();
    }

    @ParameterizedTest
    @EnumSource(
            value = BackupFormat.class,
            mode = EnumSource.Mode.EXCLUDE,
            names = {"PARQUET", "SSTABLE"})
    void rowsRoundTripWithTheirWriteTimesAndTheManifestEntryMatchesTheBytes(BackupFormat format) throws IOException {
        ManifestPart[] entry = new ManifestPart[1];
        byte[] bytes = write(format, rows(), entry);

        assertThat(entry[0].name()).isEqualTo("part-00000" + format.extension());
        assertThat(entry[0].rowCount()).isEqualTo(50);
        assertThat(entry[0].sha256()).isEqualTo(Sha256.hex(bytes));
        try (PartReader reader = PartReader.open(new ByteArrayInputStream(bytes), format, SCHEMA, entry[0])) {
            assertThat(reader.readAll()).isEqualTo(rows());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = BackupFormat.class,
            mode = EnumSource.Mode.EXCLUDE,
            names = {"PARQUET", "SSTABLE"})
    void aChangedByteIsACheckSumMismatch(BackupFormat format) throws IOException {
        ManifestPart[] entry = new ManifestPart[1];
        byte[] bytes = write(format, rows(), entry);
        // the last byte: gzip's size trailer, zstd's frame end, CSV's final newline: still readable, but not the same
        // file
        bytes[bytes.length - 1] ^= 0x01;

        assertThatThrownBy(() -> {
                    try (PartReader reader =
                            PartReader.open(new ByteArrayInputStream(bytes), format, SCHEMA, entry[0])) {
                        reader.readAll();
                    }
                })
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageMatching("(checksum mismatch for part part-00000.* the manifest says SHA-256 "
                        + entry[0].sha256() + " but the " + bytes.length
                        + " bytes read hash to [0-9a-f]{64}.*)|(part part-00000.* is corrupt.*)");
    }

    @ParameterizedTest
    @EnumSource(
            value = BackupFormat.class,
            mode = EnumSource.Mode.EXCLUDE,
            names = {"PARQUET", "SSTABLE"})
    void aRowCountOtherThanTheManifestsFails(BackupFormat format) throws IOException {
        ManifestPart[] entry = new ManifestPart[1];
        byte[] bytes = write(format, rows(), entry);
        ManifestPart wrongCount = new ManifestPart(entry[0].name(), 51, entry[0].sha256());

        assertThatThrownBy(() -> {
                    try (PartReader reader =
                            PartReader.open(new ByteArrayInputStream(bytes), format, SCHEMA, wrongCount)) {
                        reader.readAll();
                    }
                })
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("part " + entry[0].name() + " has 50 rows but its manifest says 51");
    }

    @ParameterizedTest
    @EnumSource(
            value = BackupFormat.class,
            names = {"JSONL_GZIP", "JSONL_ZSTD"})
    void aTruncatedCompressedPartIsCorrupt(BackupFormat format) throws IOException {
        ManifestPart[] entry = new ManifestPart[1];
        byte[] bytes = write(format, rows(), entry);
        byte[] truncated = Arrays.copyOf(bytes, bytes.length / 2);

        assertThatThrownBy(() -> {
                    try (PartReader reader =
                            PartReader.open(new ByteArrayInputStream(truncated), format, SCHEMA, entry[0])) {
                        reader.readAll();
                    }
                })
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("part-00000");
    }

    @Test
    void csvHasAHeaderWithWriteTimeColumnsAndQuotesOnlyWhatItMust() throws IOException {
        ManifestPart[] entry = new ManifestPart[1];
        byte[] bytes = write(BackupFormat.CSV, rows().subList(0, 5), entry);

        assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("""
                customer_id,order_id,total,note,paid,@writeTime.total,@writeTime.note
                1000000000000,o-0,0.25,plain,true,1700000000000000,1700000000000001
                1000000000001,o-1,1.25,"comma, and ""quotes""\",false,1700000000000001,1700000000000002
                1000000000002,o-2,2.25,"two
                lines",true,1700000000000002,1700000000000003
                1000000000003,o-3,3.25,"",false,1700000000000003,1700000000000004
                1000000000004,o-4,4.25,,true,1700000000000004,1700000000000005
                """);
    }

    @Test
    void jsonLinesPutWriteTimesLastUnderAnAtName() throws IOException {
        ManifestPart[] entry = new ManifestPart[1];
        byte[] bytes = write(BackupFormat.JSONL_GZIP, rows().subList(3, 5), entry);
        byte[] text = new GZIPInputStream(new ByteArrayInputStream(bytes)).readAllBytes();

        assertThat(new String(text, StandardCharsets.UTF_8)).isEqualTo("""
                {"customer_id":1000000000003,"order_id":"o-3","total":3.25,"note":"","paid":false,\
                "@writeTimes":{"total":1700000000000003,"note":1700000000000004}}
                {"customer_id":1000000000004,"order_id":"o-4","total":4.25,"note":null,"paid":true,\
                "@writeTimes":{"total":1700000000000004,"note":1700000000000005}}
                """);
    }
}
