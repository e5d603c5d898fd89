package io.erasure.audit.units;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.audit.testdata.AuditTestKit;
import io.erasure.backup.export.cassandra.CassandraTableExport;
import io.erasure.backup.export.postgres.PostgresTableExport;
import io.erasure.backup.export.snapshot.SnapshotExporter;
import io.erasure.backup.export.throttle.RowRateLimiter;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.KafkaEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.MedusaUpload;
import io.erasure.infra.NodetoolSnapshotUpload;
import io.erasure.infra.PostgresEngine;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.key.CanonicalKey;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The whole backup path on real stores: a Cassandra table and a PostgreSQL identifier table are
 * exported to S3 by the exporters, then audited. The candidates are exactly the rows of deletable
 * customers, with the latest {@code WRITETIME} of each row as the exporter read it.
 */
class ExportedBackupsAuditIT {

    static final KafkaEngine KAFKA = LocalEngines.kafka();
    static final AuditTestKit KIT = new AuditTestKit(LocalEngines.s3(), KAFKA);
    static final long T = 1_700_000_000_000_000L;

    @AfterAll
    static void close() {
        KIT.close();
    }

    @Test
    void candidatesOfExportedBackupsAreTheRowsOfDeletableCustomersWithTheirWriteTimes() throws Exception {
        CassandraEngine cassandra = LocalEngines.cassandra();
        PostgresEngine postgres = LocalEngines.postgres();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String keyspace = "audit_e2e_" + suffix.replace('-', '_');
        String dataset = "orders-" + suffix;
        String sourceName = "customers-" + suffix;
        List<String> expected = new ArrayList<>();
        try (CqlSession session = CqlSession.builder()
                        .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                        .withLocalDatacenter(cassandra.localDatacenter())
                        .build();
                Connection pg =
                        DriverManager.getConnection(postgres.jdbcUrl(), postgres.username(), postgres.password())) {
            session.execute("CREATE KEYSPACE " + keyspace
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute(
                    "CREATE TABLE " + keyspace + ".orders (customer_id bigint, order_id text, status text, total int,"
                            + " PRIMARY KEY (customer_id, order_id))");
            for (int i = 0; i < 400; i++) {
                session.execute(
                        "INSERT INTO " + keyspace + ".orders (customer_id, order_id, status, total) VALUES (?, ?, ?, ?)"
                                + " USING TIMESTAMP " + (T + i),
                        (long) (1 + i % 50),
                        "o-" + i,
                        "NEW",
                        i);
                if (i % 7 == 0) {
                    session.execute(
                            "UPDATE " + keyspace + ".orders USING TIMESTAMP " + (T + 1_000 + i)
                                    + " SET status = 'SHIPPED' WHERE customer_id = ? AND order_id = ?",
                            (long) (1 + i % 50),
                            "o-" + i);
                }
            }
            String schema = "audit_e2e_" + suffix.replace('-', '_');
            try (Statement statement = pg.createStatement()) {
                statement.execute("CREATE SCHEMA " + schema);
                statement.execute("CREATE TABLE " + schema
                        + ".customers (customer_id bigint PRIMARY KEY, deleted_at timestamptz)");
                // every 5th customer left 10 days ago; every 5th + 1 an hour ago (within the 1-day grace); the rest are
                // live
                statement.execute("INSERT INTO " + schema
                        + ".customers SELECT g, CASE WHEN g % 5 = 0 THEN now() - interval '10 days'"
                        + " WHEN g % 5 = 1 THEN now() - interval '1 hour' END FROM generate_series(1, 50) g");
            }

            IdentifierSource source = AuditTestKit.source(sourceName, BackupFormat.JSONL_GZIP, Duration.ofDays(1));
            DatasetSpec spec = AuditTestKit.spec(
                    dataset,
                    KeyColumns.of(List.of("customer_id"), List.of("order_id")),
                    "customer_id",
                    sourceName,
                    BackupFormat.JSONL_ZSTD);
            SnapshotExporter exporter = new SnapshotExporter(KIT.bucket);
            exporter.export(
                    sourceName,
                    source.backup(),
                    new PostgresTableExport(pg, schema, "customers", "customer_id", BackupFormat.JSONL_GZIP, 20),
                    RowRateLimiter.unlimited());
            exporter.export(
                    dataset,
                    spec.backup(),
                    new CassandraTableExport(
                            session, keyspace, "orders", "customer_id", 4, 100, DefaultConsistencyLevel.LOCAL_QUORUM),
                    RowRateLimiter.perSecond(10_000));

            for (Row row : session.execute(
                    "SELECT customer_id, order_id, WRITETIME(status), WRITETIME(total) FROM " + keyspace + ".orders")) {
                if (row.getLong(0) % 5 == 0) {
                    expected.add("{\"customer_id\":" + row.getLong(0) + ",\"order_id\":\"" + row.getString(1) + "\"} "
                            + row.getLong(0) + " " + Math.max(row.getLong(2), row.getLong(3)));
                }
            }

            String run = audit(spec, source);

            AuditCompleted completed = KIT.events(run).get(0).payloadAs(AuditCompleted.class);
            assertThat(completed.rowsScanned()).isEqualTo(400);
            assertThat(completed.candidateCount()).isEqualTo(80);
            assertThat(KIT.candidates(run).stream()
                            .map(ExportedBackupsAuditIT::rendered)
                            .toList())
                    .containsExactlyInAnyOrderElementsOf(expected)
                    .hasSize(80);

            // the same table backed up by cassandra-medusa: its SSTables, read where they lie, give the same rows
            String medusaPrefix = "backups/medusa-" + suffix + "/";
            MedusaUpload.backUp(
                    cassandra,
                    (key, bytes) -> KIT.bucket
                            .s3()
                            .putObject(b -> b.bucket(KIT.bucket.bucket()).key(key), RequestBody.fromBytes(bytes)),
                    medusaPrefix,
                    "nightly-1",
                    "node1.local",
                    keyspace,
                    "orders");
            DatasetSpec medusa = spec.toBuilder()
                    .name(dataset + "-medusa")
                    .namespace(keyspace)
                    .table("orders")
                    .backup(BackupLocation.medusa(medusaPrefix))
                    .build();
            String medusaRun = audit(medusa, source);

            AuditCompleted fromSSTables = KIT.events(medusaRun).get(0).payloadAs(AuditCompleted.class);
            assertThat(fromSSTables.snapshot()).isEqualTo("nightly-1");
            assertThat(fromSSTables.rowsScanned()).isEqualTo(400);
            assertThat(KIT.candidates(medusaRun).stream()
                            .map(ExportedBackupsAuditIT::rendered)
                            .toList())
                    .containsExactlyInAnyOrderElementsOf(expected);

            // and by nodetool snapshot, its folder copied as it is: the same rows again, less a live customer's order
            // deleted since, whose tombstone the snapshot holds
            session.execute("DELETE FROM " + keyspace + ".orders WHERE customer_id = 2 AND order_id = 'o-1'");
            String snapshotsPrefix = "backups/snapshots-" + suffix + "/";
            NodetoolSnapshotUpload.backUp(
                    cassandra,
                    (key, bytes) -> KIT.bucket
                            .s3()
                            .putObject(b -> b.bucket(KIT.bucket.bucket()).key(key), RequestBody.fromBytes(bytes)),
                    snapshotsPrefix,
                    "daily-1",
                    "10.0.0.1",
                    keyspace,
                    "orders");
            String snapshotRun = audit(
                    medusa.toBuilder()
                            .name(dataset + "-snapshots")
                            .backup(BackupLocation.nodetoolSnapshots(snapshotsPrefix, 1))
                            .build(),
                    source);

            AuditCompleted fromSnapshot = KIT.events(snapshotRun).get(0).payloadAs(AuditCompleted.class);
            assertThat(fromSnapshot.snapshot()).isEqualTo("daily-1");
            assertThat(fromSnapshot.rowsScanned()).isEqualTo(399);
            assertThat(fromSnapshot.deletedNotPurged()).isEqualTo(1);
            assertThat(fromSSTables.deletedNotPurged()).isZero();
            assertThat(KIT.candidates(snapshotRun).stream()
                            .map(ExportedBackupsAuditIT::rendered)
                            .toList())
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    private static String rendered(Candidate c) {
        return CanonicalKey.render(c.key()) + " " + c.identifier() + " " + c.writeTimeMicros();
    }

    private static String audit(DatasetSpec spec, IdentifierSource source) throws Exception {
        return OneReplica.audit(KIT, KAFKA, spec, source);
    }
}
