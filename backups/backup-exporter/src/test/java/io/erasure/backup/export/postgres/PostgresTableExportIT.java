package io.erasure.backup.export.postgres;

import static io.erasure.backup.export.ExporterTestKit.BUCKET;
import static io.erasure.backup.export.ExporterTestKit.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.backup.export.snapshot.ExportResult;
import io.erasure.backup.export.snapshot.SnapshotExporter;
import io.erasure.backup.export.throttle.RowRateLimiter;
import io.erasure.backup.format.BackupRow;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.KeyColumns;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PostgresTableExportIT {

    static final PostgresEngine POSTGRES = LocalEngines.postgres();
    static Connection connection;
    static final List<Map<String, Object>> EXPECTED = new ArrayList<>();

    @BeforeAll
    static void table() throws Exception {
        connection = DriverManager.getConnection(POSTGRES.jdbcUrl(), POSTGRES.username(), POSTGRES.password());
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA IF NOT EXISTS export_test");
            statement.execute("DROP TABLE IF EXISTS export_test.accounts");
            statement.execute("CREATE TABLE export_test.accounts (customer_id bigint NOT NULL, seq int NOT NULL,"
                    + " note text, total numeric(10,2), active boolean, updated_at timestamptz NOT NULL,"
                    + " PRIMARY KEY (customer_id, seq))");
        }
        String[] notes = {"plain", "quote \" and 'single'", "back\\slash", "new\nline", "comma, here", "ünï ✓", "", null
        };
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO export_test.accounts VALUES (?, ?, ?, ?, ?, '2024-01-31T02:00:00Z'::timestamptz + ? *"
                        + " interval '1 second')")) {
            for (int i = 0; i < 50; i++) {
                long customer = 1000 + i / 3;
                int seq = i % 3;
                insert.setLong(1, customer);
                insert.setInt(2, seq);
                insert.setString(3, notes[i % notes.length]);
                insert.setBigDecimal(4, new BigDecimal(i + ".50"));
                insert.setBoolean(5, i % 2 == 0);
                insert.setInt(6, i);
                insert.executeUpdate();
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("customer_id", customer);
                row.put("seq", (long) seq);
                row.put("note", notes[i % notes.length]);
                row.put("total", new BigDecimal(i + ".50"));
                row.put("active", i % 2 == 0);
                row.put("updated_at", Instant.parse("2024-01-31T02:00:00Z").plusSeconds(i));
                EXPECTED.add(row);
            }
        }
    }

    @AfterAll
    static void close() throws Exception {
        connection.close();
    }

    /** Exported values as the backup format types them; timestamps are compared as instants. */
    static List<Map<String, Object>> normalized(List<BackupRow> rows) {
        return rows.stream()
                .map(r -> {
                    Map<String, Object> values = new LinkedHashMap<>(r.values());
                    values.put(
                            "updated_at",
                            OffsetDateTime.parse(((String) values.get("updated_at"))
                                            .replace(' ', 'T')
                                            .replaceAll("\\+00$", "+00:00"))
                                    .toInstant());
                    values.put("total", ((BigDecimal) values.get("total")).setScale(2));
                    return values;
                })
                .toList();
    }

    @Test
    void aParquetExportIsRefusedBeforeAnythingIsWritten() {
        BackupLocation location =
                new BackupLocation("backups/accounts-" + UUID.randomUUID() + "/", BackupFormat.PARQUET);

        assertThatThrownBy(() -> new SnapshotExporter(BUCKET)
                        .export(
                                "accounts",
                                location,
                                new PostgresTableExport(
                                        connection, "export_test", "accounts", "customer_id", BackupFormat.CSV, 7),
                                RowRateLimiter.unlimited()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("PARQUET parts are columnar files, not streams");
        assertThat(BUCKET.s3()
                        .listObjectsV2(r -> r.bucket(BUCKET.bucket()).prefix(location.prefix()))
                        .contents())
                .as("no progress file, no part")
                .isEmpty();
    }

    @ParameterizedTest
    @EnumSource(
            value = BackupFormat.class,
            mode = EnumSource.Mode.EXCLUDE,
            names = {"PARQUET", "SSTABLE"})
    void everyRowIsExportedInKeyOrderWithTheSchemaAcrossKeysetPagedParts(BackupFormat format) throws Exception {
        BackupLocation location = new BackupLocation("backups/accounts-" + UUID.randomUUID() + "/", format);
        RowRateLimiter limiter = RowRateLimiter.unlimited();

        ExportResult result = new SnapshotExporter(BUCKET)
                .export(
                        "accounts",
                        location,
                        new PostgresTableExport(connection, "export_test", "accounts", "customer_id", format, 7),
                        limiter);

        // 50 rows, 7 per part: 7 full parts and one of a single row
        assertThat(result.parts()).isEqualTo(8);
        assertThat(limiter.acquired()).isEqualTo(50);
        BackupManifest manifest = BUCKET.readManifest(result.manifestKey());
        assertThat(manifest.schema().keyColumns()).isEqualTo(KeyColumns.of(List.of("customer_id", "seq"), List.of()));
        assertThat(manifest.schema().columns())
                .containsExactly(
                        new ColumnSchema("customer_id", "bigint"),
                        new ColumnSchema("seq", "integer"),
                        new ColumnSchema("note", "text"),
                        new ColumnSchema("total", "numeric(10,2)"),
                        new ColumnSchema("active", "boolean"),
                        new ColumnSchema("updated_at", "timestamp with time zone"));
        assertThat(manifest.parts().get(7).rowCount()).isEqualTo(1);

        assertThat(normalized(readAll(result.manifestKey()))).containsExactlyElementsOf(EXPECTED);
    }

    @ParameterizedTest
    @EnumSource(
            value = BackupFormat.class,
            names = {"JSONL_GZIP", "CSV"})
    void aCrashedExportResumesAfterTheLastFinishedPart(BackupFormat format) throws Exception {
        BackupLocation location = new BackupLocation("backups/accounts-" + UUID.randomUUID() + "/", format);
        AtomicInteger parts = new AtomicInteger();
        SnapshotExporter crashing =
                new SnapshotExporter(BUCKET, Clock.systemUTC(), Duration.ofSeconds(5), Duration.ofHours(1), part -> {
                    if (parts.incrementAndGet() == 3) {
                        throw new IllegalStateException("exporter killed");
                    }
                });
        assertThatThrownBy(() -> crashing.export(
                        "accounts",
                        location,
                        new PostgresTableExport(connection, "export_test", "accounts", "customer_id", format, 10),
                        RowRateLimiter.unlimited()))
                .hasMessage("exporter killed");
        assertThat(BUCKET.latestCompleteSnapshot(location)).isEmpty();

        RowRateLimiter limiter = RowRateLimiter.unlimited();
        ExportResult result = new SnapshotExporter(BUCKET)
                .export(
                        "accounts",
                        location,
                        new PostgresTableExport(connection, "export_test", "accounts", "customer_id", format, 10),
                        limiter);

        assertThat(result.resumed()).isTrue();
        assertThat(result.partsWritten()).isEqualTo(2);
        assertThat(limiter.acquired()).isEqualTo(20);
        assertThat(normalized(readAll(S3Layout.manifestKey(location, result.snapshot()))))
                .containsExactlyElementsOf(EXPECTED);
    }
}
