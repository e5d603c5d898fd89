package io.erasure.audit.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.audit.testdata.AuditTestKit;
import io.erasure.audit.testdata.ParquetParts;
import io.erasure.audit.testdata.RdsExportFiles;
import io.erasure.backup.export.postgres.PostgresTableExport;
import io.erasure.backup.export.snapshot.SnapshotExporter;
import io.erasure.backup.export.throttle.RowRateLimiter;
import io.erasure.infra.KafkaEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditFailed;
import io.erasure.model.event.AuditRequested;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.key.CanonicalKey;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Amazon RDS snapshot exports of a PostgreSQL table, laid out in the local S3 as RDS writes them, audited through the
 * planner, the units on Kafka and AuditCompleted. The table's rows are a real PostgreSQL table's, written as RDS's
 * export writes them (bigint as INT64, uuid as a UTF-8 string, numeric as DECIMAL), so the candidates can be compared
 * with that table read at the same time.
 */
class RdsExportAuditIT {

    static final KafkaEngine KAFKA = LocalEngines.kafka();
    static final AuditTestKit KIT = new AuditTestKit(LocalEngines.s3(), KAFKA);
    static final MessageType ORDERS = new MessageType(
            "spark_schema",
            Types.optional(PrimitiveTypeName.BINARY)
                    .as(LogicalTypeAnnotation.stringType())
                    .named("order_id"),
            Types.optional(PrimitiveTypeName.INT64).named("customer_id"),
            Types.optional(PrimitiveTypeName.INT64)
                    .as(LogicalTypeAnnotation.decimalType(2, 12))
                    .named("total"),
            // never read: it makes each file larger than the tail a footer read fetches, so the identifier and key
            // columns are fetched by ranged GETs of their own
            Types.optional(PrimitiveTypeName.BINARY)
                    .as(LogicalTypeAnnotation.stringType())
                    .named("note"));
    static final Map<String, String> COLUMNS =
            Map.of("order_id", "uuid", "customer_id", "bigint", "total", "numeric", "note", "text");

    static String schema;
    static IdentifierSource source;
    /** The live table's orders: order id, customer id, total in cents. */
    static List<Object[]> orders = new ArrayList<>();
    /** The orders of customers deletable now, as rendered candidates. */
    static List<String> deletable = new ArrayList<>();

    @BeforeAll
    static void tables() throws Exception {
        PostgresEngine postgres = LocalEngines.postgres();
        schema = "rds_" + UUID.randomUUID().toString().substring(0, 8);
        String sourceName = AuditTestKit.unique("customers");
        try (Connection pg = DriverManager.getConnection(postgres.jdbcUrl(), postgres.username(), postgres.password());
                Statement statement = pg.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
            statement.execute(
                    "CREATE TABLE " + schema + ".customers (customer_id bigint PRIMARY KEY, deleted_at timestamptz)");
            // every 5th customer left 10 days ago; every 5th + 1 an hour ago (within the 1-day grace)
            statement.execute("INSERT INTO " + schema + ".customers SELECT g, CASE WHEN g % 5 = 0 THEN now() -"
                    + " interval '10 days' WHEN g % 5 = 1 THEN now() - interval '1 hour' END"
                    + " FROM generate_series(1, 50) g");
            statement.execute("CREATE TABLE " + schema + ".orders (order_id uuid PRIMARY KEY, customer_id bigint NOT"
                    + " NULL, total numeric(12, 2), note text)");
            statement.execute("INSERT INTO " + schema + ".orders SELECT md5('order-' || g)::uuid, 1 + g % 50,"
                    + " g * 1.25, 'n' || g FROM generate_series(1, 600) g");
            source = AuditTestKit.source(sourceName, BackupFormat.JSONL_GZIP, Duration.ofDays(1));
            new SnapshotExporter(KIT.bucket)
                    .export(
                            sourceName,
                            source.backup(),
                            new PostgresTableExport(
                                    pg, schema, "customers", "customer_id", BackupFormat.JSONL_GZIP, 20),
                            RowRateLimiter.unlimited());
            try (ResultSet rows = statement.executeQuery(
                    "SELECT order_id::text, customer_id, total FROM " + schema + ".orders ORDER BY order_id")) {
                while (rows.next()) {
                    orders.add(new Object[] {
                        rows.getString(1),
                        rows.getLong(2),
                        rows.getBigDecimal(3).movePointRight(2).longValueExact()
                    });
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT o.order_id::text, o.customer_id FROM " + schema
                    + ".orders o JOIN " + schema + ".customers c USING (customer_id)"
                    + " WHERE c.deleted_at < now() - interval '1 day'")) {
                while (rows.next()) {
                    deletable.add("{\"order_id\":\"" + rows.getString(1) + "\"} " + rows.getLong(2));
                }
            }
        }
    }

    @AfterAll
    static void close() {
        KIT.close();
    }

    @Test
    void theNewestCompleteExportIsAuditedAsOfItsSnapshotAndGivesTheLiveTablesOrdersOfDeletableCustomers()
            throws Exception {
        String prefix = "backups/" + AuditTestKit.unique("rds") + "/";
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String target = "app." + schema + ".orders";

        // a day-old export of the table, complete: passed over for the newer one
        RdsExportFiles older = new RdsExportFiles(KIT.bucket, prefix, "exp-older");
        older.info("COMPLETE", now.minus(Duration.ofDays(1)));
        older.tables(1, 1, List.of(new RdsExportFiles.Table(target, "COMPLETE", COLUMNS)));
        older.put("app/" + schema + ".orders/1/part-00000-" + UUID.randomUUID() + ".gz.parquet", parquet(0, 10));

        // the one audited: the table in three files over two partitions, listed in the second tables info file
        Instant snapshot = now.minus(Duration.ofHours(2));
        RdsExportFiles audited = new RdsExportFiles(KIT.bucket, prefix, "exp-nightly");
        audited.info("COMPLETE", snapshot);
        audited.tables(1, 1, List.of(new RdsExportFiles.Table("app." + schema + ".customers", "COMPLETE", COLUMNS)));
        audited.tables(2, 2, List.of(new RdsExportFiles.Table(target, "COMPLETE", COLUMNS)));
        String table = "app/" + schema + ".orders/";
        audited.put(table + "1/part-00000-" + UUID.randomUUID() + ".gz.parquet", parquet(0, 250));
        audited.put(table + "1/part-00001-" + UUID.randomUUID() + ".gz.parquet", parquet(250, 400));
        audited.put(table + "1/_SUCCESS", new byte[0]);
        audited.put(table + "2/part-00000-" + UUID.randomUUID() + ".gz.parquet", parquet(400, orders.size()));
        audited.put(table + "2/_SUCCESS", new byte[0]);

        // newer, but of the staging instance's snapshot
        RdsExportFiles staging = new RdsExportFiles(KIT.bucket, prefix, "exp-staging");
        staging.info(
                "arn:aws:rds:eu-west-1:123456789012:snapshot:rds:app-staging-2026-12-01-02-05",
                "COMPLETE",
                now.minus(Duration.ofHours(1)));
        staging.tables(1, 1, List.of(new RdsExportFiles.Table(target, "COMPLETE", COLUMNS)));
        staging.put(table + "1/part-00000-" + UUID.randomUUID() + ".gz.parquet", parquet(0, 5));

        // newer, but the table failed in it, and newer still, one still running (no export info yet)
        RdsExportFiles failed = new RdsExportFiles(KIT.bucket, prefix, "exp-failed");
        failed.info("COMPLETE", now.minus(Duration.ofMinutes(30)));
        failed.tables(1, 1, List.of(new RdsExportFiles.Table(target, "FAILED", COLUMNS)));
        new RdsExportFiles(KIT.bucket, prefix, "exp-running")
                .put(table + "1/part-00000-" + UUID.randomUUID() + ".gz.parquet", parquet(0, 5));

        String run = OneReplica.audit(KIT, KAFKA, orders(prefix), source);

        AuditCompleted completed = KIT.events(run).get(0).payloadAs(AuditCompleted.class);
        assertThat(completed.snapshot()).isEqualTo("exp-nightly");
        assertThat(completed.cutoff())
                .isEqualTo(CutoffTimestamp.fromBackupStart(snapshot, CutoffTimestamp.DEFAULT_CLOCK_SKEW_MARGIN));
        assertThat(completed.rowsScanned()).isEqualTo(orders.size());
        assertThat(KIT.candidates(run).stream().map(RdsExportAuditIT::rendered).toList())
                .containsExactlyInAnyOrderElementsOf(deletable)
                .hasSize(120);
        assertThat(KIT.candidateParts(run)).hasSize(3);
    }

    @Test
    void anExportWithoutASnapshotTimeTheKeyColumnOrItsFilesIsRefusedSayingWhy() throws Exception {
        String target = "app." + schema + ".orders";
        String noTime = "backups/" + AuditTestKit.unique("rds") + "/";
        RdsExportFiles untimed = new RdsExportFiles(KIT.bucket, noTime, "exp-1");
        untimed.info("COMPLETE", null);
        untimed.tables(1, 1, List.of(new RdsExportFiles.Table(target, "COMPLETE", COLUMNS)));
        assertThatThrownBy(() -> plan(orders(noTime)))
                .isInstanceOf(AuditFailure.class)
                .hasMessageContaining("no complete RDS export of " + target)
                .hasMessageContaining("has no snapshotTime");

        String noKey = assertRefused(
                keyless -> {
                    keyless.info("COMPLETE", Instant.now().minus(Duration.ofHours(1)));
                    Map<String, String> columns = new LinkedHashMap<>(COLUMNS);
                    columns.remove("order_id");
                    keyless.tables(1, 1, List.of(new RdsExportFiles.Table(target, "COMPLETE", columns)));
                },
                "has no column 'order_id' (a primary key column");

        String stray = "backups/" + AuditTestKit.unique("rds") + "/";
        RdsExportFiles touched = new RdsExportFiles(KIT.bucket, stray, "exp-1");
        touched.info("COMPLETE", Instant.now().minus(Duration.ofHours(1)));
        touched.tables(1, 1, List.of(new RdsExportFiles.Table(target, "COMPLETE", COLUMNS)));
        String table = "app/" + schema + ".orders/";
        assertThatThrownBy(() -> plan(orders(stray)))
                .isInstanceOf(AuditFailure.class)
                .hasMessageContaining("lists " + target + " as COMPLETE but holds no Parquet file of it");
        touched.put(table + "1/part-00000-" + UUID.randomUUID() + ".gz.parquet", parquet(0, 10));
        touched.put(table + "1/notes.txt", new byte[] {1});
        assertThatThrownBy(() -> plan(orders(stray)))
                .isInstanceOf(AuditFailure.class)
                .hasMessageContaining(table + "1/notes.txt, which is neither a Parquet part nor a _SUCCESS marker");

        String copied = "backups/" + AuditTestKit.unique("rds") + "/";
        RdsExportFiles renamed = new RdsExportFiles(KIT.bucket, copied, "exp-2");
        renamed.put(
                "export_info_exp-2.json",
                KIT.bytes(untimed.folder() + "export_info_exp-1.json")); // names exp-1, lies in exp-2
        assertThatThrownBy(() -> plan(orders(copied)))
                .isInstanceOf(AuditFailure.class)
                .hasMessageContaining("names export 'exp-1', not 'exp-2', the folder it lies in");

        assertThatThrownBy(() -> plan(orders(noKey).toBuilder()
                        .backup(BackupLocation.rdsExports(noKey, "other", RdsExportFiles.SOURCE))
                        .build()))
                .hasMessageContaining("does not hold other." + schema + ".orders");

        assertRefused(
                halfway -> {
                    halfway.info("COMPLETE", Instant.now().minus(Duration.ofHours(1)));
                    String info =
                            new String(KIT.bytes(halfway.folder() + "export_info_exp-1.json"), StandardCharsets.UTF_8);
                    halfway.put(
                            "export_info_exp-1.json",
                            info.replace("\"percentProgress\":100", "\"percentProgress\":87")
                                    .getBytes(StandardCharsets.UTF_8));
                    halfway.tables(1, 1, List.of(new RdsExportFiles.Table(target, "COMPLETE", COLUMNS)));
                },
                "says COMPLETE at percentProgress 87, not 100");

        assertRefused(
                doubled -> {
                    doubled.info("COMPLETE", Instant.now().minus(Duration.ofHours(1)));
                    doubled.tables(1, 1, List.of(new RdsExportFiles.Table(target, "COMPLETE", COLUMNS)));
                    doubled.tables(2, 2, List.of(new RdsExportFiles.Table(target, "COMPLETE", COLUMNS)));
                },
                "lists " + target + " twice in its tables info");
    }

    /** The files of an export, written by a test. */
    private interface ExportWriter {
        void write(RdsExportFiles export) throws Exception;
    }

    /**
     * Writes export {@code exp-1} under a new prefix with {@code writer} and asserts that planning its audit is refused
     * saying {@code reason}; returns the prefix.
     */
    private static String assertRefused(ExportWriter writer, String reason) throws Exception {
        String prefix = "backups/" + AuditTestKit.unique("rds") + "/";
        writer.write(new RdsExportFiles(KIT.bucket, prefix, "exp-1"));
        assertThatThrownBy(() -> plan(orders(prefix)))
                .isInstanceOf(AuditFailure.class)
                .hasMessageContaining(reason);
        return prefix;
    }

    @Test
    void aFileReplacedAfterPlanningFailsTheAuditNamingIt() throws Exception {
        // written again under the same name once the run is planned, with more rows: every range planned still lies
        // within it, so only the ETag tells the files apart
        assertChangedAfterPlanningFailsTheAudit(
                parquet(0, 500),
                part -> KIT.bucket
                        .s3()
                        .putObject(
                                b -> b.bucket(KIT.bucket.bucket()).key(part),
                                RequestBody.fromBytes(parquet(0, orders.size()))),
                "was replaced after the audit was planned");
    }

    @Test
    void aFileDeletedAfterPlanningFailsTheAuditNamingIt() throws Exception {
        assertChangedAfterPlanningFailsTheAudit(
                parquet(0, 100),
                part -> KIT.bucket
                        .s3()
                        .deleteObject(b -> b.bucket(KIT.bucket.bucket()).key(part)),
                "is missing: it was deleted after the audit was planned");
    }

    /** What is done to the export's one file once the run is planned, before its unit runs. */
    private interface Change {
        void apply(String partKey) throws Exception;
    }

    /** An export of one file holding {@code bytes}, changed after planning: the run fails naming it, no candidates. */
    private static void assertChangedAfterPlanningFailsTheAudit(byte[] bytes, Change change, String reason)
            throws Exception {
        String prefix = "backups/" + AuditTestKit.unique("rds") + "/";
        RdsExportFiles export = new RdsExportFiles(KIT.bucket, prefix, "exp-1");
        export.info("COMPLETE", Instant.now().minus(Duration.ofHours(1)));
        export.tables(1, 1, List.of(new RdsExportFiles.Table("app." + schema + ".orders", "COMPLETE", COLUMNS)));
        String part = export.put("app/" + schema + ".orders/1/part-00000-" + UUID.randomUUID() + ".gz.parquet", bytes);

        String run = OneReplica.audit(KIT, KAFKA, orders(prefix), source, planned -> change.apply(part));

        AuditFailed failed = KIT.events(run).get(0).payloadAs(AuditFailed.class);
        assertThat(failed.reason()).contains(part).contains(reason);
        assertThat(KIT.candidateParts(run)).isEmpty();
    }

    private static DatasetSpec orders(String prefix) {
        return AuditTestKit.spec(
                        AuditTestKit.unique("orders"),
                        KeyColumns.partitionOnly("order_id"),
                        "customer_id",
                        source.name(),
                        BackupFormat.PARQUET)
                .toBuilder()
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace(schema)
                .table("orders")
                .backup(BackupLocation.rdsExports(prefix, "app", RdsExportFiles.SOURCE))
                .build();
    }

    private static AuditPlan plan(DatasetSpec spec) {
        AuditProgress progress = new AuditProgress(KIT.bucket, AuditTestKit.JSON);
        return new AuditPlanner(KIT.bucket, progress, Clock.systemUTC())
                .plan(AuditTestKit.unique("run"), new AuditRequested(spec, source, false));
    }

    /** Orders {@code from} (inclusive) to {@code to} of the live table as one Parquet file of an export. */
    private static byte[] parquet(int from, int to) throws Exception {
        return ParquetParts.write("part.parquet", ORDERS, to - from, (group, i) -> {
                    Object[] order = orders.get(from + i);
                    group.append("order_id", (String) order[0]);
                    group.append("customer_id", (long) order[1]);
                    group.append("total", (long) order[2]);
                    group.append("note", UUID.randomUUID().toString().repeat(8));
                })
                .bytes();
    }

    private static String rendered(Candidate c) {
        return CanonicalKey.render(c.key()) + " " + c.identifier();
    }
}
