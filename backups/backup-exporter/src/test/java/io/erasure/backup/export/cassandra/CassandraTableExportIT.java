package io.erasure.backup.export.cassandra;

import static io.erasure.backup.export.ExporterTestKit.BUCKET;
import static io.erasure.backup.export.ExporterTestKit.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.erasure.backup.export.snapshot.ExportResult;
import io.erasure.backup.export.snapshot.SnapshotExporter;
import io.erasure.backup.export.throttle.RowRateLimiter;
import io.erasure.backup.format.BackupRow;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.KeyColumns;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CassandraTableExportIT {

    static final CassandraEngine CASSANDRA = LocalEngines.cassandra();
    static final long T = 1_700_000_000_000_000L;
    static CqlSession session;

    @BeforeAll
    static void schema() {
        session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(CASSANDRA.host(), CASSANDRA.port()))
                .withLocalDatacenter(CASSANDRA.localDatacenter())
                .build();
        session.execute("CREATE KEYSPACE IF NOT EXISTS export_test WITH replication = {'class': 'SimpleStrategy',"
                + " 'replication_factor': 1}");
        session.execute("CREATE TABLE IF NOT EXISTS export_test.events (tenant text, customer_id bigint, at timestamp,"
                + " kind text, amount decimal, tags set<text>, PRIMARY KEY ((tenant, customer_id), at))");
        session.execute("TRUNCATE export_test.events");
        for (int i = 0; i < 300; i++) {
            session.execute(
                    "INSERT INTO export_test.events (tenant, customer_id, at, kind, amount, tags)"
                            + " VALUES (?, ?, ?, ?, ?, ?) USING TIMESTAMP " + (T + i),
                    "t" + (i % 3),
                    (long) (i % 40),
                    Instant.ofEpochSecond(1_700_000_000L + i),
                    i % 10 == 0 ? null : "kind-\"" + i + "\"",
                    new BigDecimal(i + ".25"),
                    Set.of("a" + i));
        }
        // a newer write to one cell: its own WRITETIME
        session.execute("UPDATE export_test.events USING TIMESTAMP " + (T + 10_000)
                + " SET amount = 1.5 WHERE tenant = 't0' AND customer_id = 0 AND at = '2023-11-14T22:13:20Z'");
    }

    @AfterAll
    static void close() {
        session.close();
    }

    CassandraTableExport table(int slices) {
        return new CassandraTableExport(
                session, "export_test", "events", "customer_id", slices, 50, DefaultConsistencyLevel.LOCAL_QUORUM);
    }

    @Test
    void everyRowIsExportedOnceWithTheSchemaAndPerColumnWriteTimes() throws Exception {
        BackupLocation location =
                new BackupLocation("backups/events-" + UUID.randomUUID() + "/", BackupFormat.JSONL_GZIP);
        Instant start = Instant.parse("2024-02-01T03:00:00Z");
        SnapshotExporter exporter = new SnapshotExporter(
                BUCKET,
                Clock.fixed(start, ZoneOffset.UTC),
                Duration.ofSeconds(5),
                Duration.ofHours(24),
                SnapshotExporter.Observer.NONE);
        RowRateLimiter limiter = RowRateLimiter.unlimited();

        ExportResult result = exporter.export("events", location, table(4), limiter);

        assertThat(result.snapshot()).isEqualTo("20240201T030000Z");
        assertThat(result.rows()).isEqualTo(300);
        assertThat(limiter.acquired()).isEqualTo(300);
        BackupManifest manifest = BUCKET.readManifest(result.manifestKey());
        assertThat(manifest.cutoffMicros()).isEqualTo(CutoffTimestamp.toMicros(start.minusSeconds(5)));
        assertThat(manifest.parts()).hasSizeBetween(2, 4);
        assertThat(manifest.schema().keyColumns())
                .isEqualTo(KeyColumns.of(List.of("tenant", "customer_id"), List.of("at")));
        assertThat(manifest.schema().columns())
                .contains(
                        new ColumnSchema("customer_id", "bigint"),
                        new ColumnSchema("tags", "set<text>"),
                        new ColumnSchema("amount", "decimal"));
        assertThat(BUCKET.exists(SnapshotExporter.progressKey(location, result.snapshot())))
                .isFalse();

        List<BackupRow> rows = readAll(result.manifestKey());
        assertThat(rows).hasSize(300);
        assertThat(rows.stream()
                        .map(r -> r.values().get("tenant") + "/" + r.values().get("customer_id") + "/"
                                + r.values().get("at"))
                        .distinct())
                .hasSize(300);
        BackupRow updated = rows.stream()
                .filter(r -> r.values().get("tenant").equals("t0")
                        && r.values().get("customer_id").equals(0L)
                        && r.values().get("at").equals("2023-11-14T22:13:20Z"))
                .findFirst()
                .orElseThrow();
        assertThat(updated.values())
                .containsEntry("amount", new BigDecimal("1.5"))
                .containsEntry("kind", null)
                .containsEntry("tags", List.of("a0"));
        // kind was null: no write time; tags is a non-frozen set: none kept; amount was rewritten later
        assertThat(updated.writeTimes()).isEqualTo(Map.of("amount", T + 10_000));
        BackupRow plain = rows.stream()
                .filter(r -> "kind-\"7\"".equals(r.values().get("kind")))
                .findFirst()
                .orElseThrow();
        assertThat(plain.writeTimes()).isEqualTo(Map.of("amount", T + 7, "kind", T + 7));
    }

    @Test
    void aCrashedExportResumesAfterItsLastFinishedPartAndNeverShowsAHalfSnapshot() throws Exception {
        BackupLocation location =
                new BackupLocation("backups/events-" + UUID.randomUUID() + "/", BackupFormat.JSONL_ZSTD);
        AtomicInteger recorded = new AtomicInteger();
        SnapshotExporter crashing =
                new SnapshotExporter(BUCKET, Clock.systemUTC(), Duration.ofSeconds(5), Duration.ofHours(1), part -> {
                    if (recorded.incrementAndGet() == 2) {
                        throw new IllegalStateException("exporter killed");
                    }
                });
        assertThatThrownBy(() -> crashing.export("events", location, table(8), RowRateLimiter.unlimited()))
                .hasMessage("exporter killed");
        String snapshot = BUCKET.snapshots(location).get(0);
        assertThat(BUCKET.latestCompleteSnapshot(location)).isEmpty();
        assertThat(BUCKET.exists(SnapshotExporter.progressKey(location, snapshot)))
                .isTrue();

        RowRateLimiter limiter = RowRateLimiter.unlimited();
        ExportResult resumed = new SnapshotExporter(BUCKET).export("events", location, table(8), limiter);

        assertThat(resumed.resumed()).isTrue();
        assertThat(resumed.snapshot()).isEqualTo(snapshot);
        assertThat(resumed.partsWritten()).isEqualTo(resumed.parts() - 2);
        assertThat(limiter.acquired()).isLessThan(300);
        assertThat(BUCKET.latestCompleteSnapshot(location)).contains(snapshot);
        List<BackupRow> rows = readAll(S3Layout.manifestKey(location, snapshot));
        assertThat(rows).hasSize(300);
        assertThat(rows.stream()
                        .map(r -> r.values().get("at"))
                        .sorted(Comparator.comparing(Object::toString))
                        .distinct())
                .hasSize(300);
    }

    @Test
    void slicesCoverTheWholeRingWithoutOverlap() {
        CassandraTableExport table = table(3);
        assertThat(table.lowerBound(0)).isEqualTo(Long.MIN_VALUE);
        assertThat(table.lowerBound(1)).isEqualTo(table.upperBound(0));
        assertThat(table.lowerBound(2)).isEqualTo(table.upperBound(1));
        assertThat(table.upperBound(2)).isEqualTo(Long.MAX_VALUE);
        assertThat(table.query())
                .isEqualTo("SELECT \"tenant\", \"customer_id\", \"at\", \"amount\", \"kind\", \"tags\","
                        + " WRITETIME(\"amount\"), WRITETIME(\"kind\") FROM \"export_test\".\"events\""
                        + " WHERE token(\"tenant\", \"customer_id\") > ? AND token(\"tenant\", \"customer_id\") <= ?");
    }
}
