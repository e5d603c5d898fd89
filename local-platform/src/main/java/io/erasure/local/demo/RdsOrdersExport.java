package io.erasure.local.demo;

import io.erasure.backup.export.BackupExporterMain;
import io.erasure.backup.format.BackupBucket;
import io.erasure.model.dataset.BackupLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/**
 * Backs {@code demo.orders} up the way a team on Amazon RDS would: as a snapshot export to S3, laid out as RDS writes
 * one under the export prefix ({@code <export>/app/demo.orders/1/part-*.gz.parquet}, one file per
 * {@value #ROWS_PER_FILE} rows, {@code numeric} and timestamps as strings as RDS writes PostgreSQL's), its tables info,
 * and its export info with the snapshot time, written last as RDS finishes an export. The audit reads the files where
 * they lie; neither the platform's exporter nor a manifest of ours is involved.
 */
final class RdsOrdersExport {

    /** The demo instance's automated snapshots (up to their date's century), whose exports are audited. */
    static final String SOURCE = "arn:aws:rds:eu-west-1:123456789012:snapshot:rds:demo-20";
    /** The exports' prefix, the database the export names the table in, and their source. */
    static final BackupLocation LOCATION = BackupLocation.rdsExports("backups/orders-rds/", "app", SOURCE);

    static final int ROWS_PER_FILE = 20_000;

    private static final MessageType TYPE = MessageTypeParser.parseMessageType("message spark_schema {"
            + " optional int64 order_id; optional int64 member_id; optional binary total (STRING);"
            + " optional binary updated_at (STRING); }");
    private static final Map<String, String> ORIGINAL_TYPES = Map.of(
            "order_id", "bigint",
            "member_id", "bigint",
            "total", "numeric",
            "updated_at", "timestamp with time zone");
    private static final DateTimeFormatter EXPORT_ID =
            DateTimeFormatter.ofPattern("'orders-'yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    /** The rest of an automated snapshot's date, after its century: {@code rds:demo-2026-12-04-02-05}. */
    private static final DateTimeFormatter SNAPSHOT_DATE =
            DateTimeFormatter.ofPattern("yy-MM-dd-HH-mm").withZone(ZoneOffset.UTC);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RdsOrdersExport() {}

    /**
     * Writes a new export of {@code demo.orders}, as of now.
     *
     * @param options the exporter's options: {@code jdbc-url}, {@code user}, {@code password} and the S3 ones
     */
    static void export(Map<String, String> options) throws IOException, SQLException {
        Instant snapshot = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String id = EXPORT_ID.format(snapshot);
        String folder = LOCATION.prefix() + id + "/";
        try (S3Client s3 = BackupExporterMain.s3Client(options);
                Connection connection = DriverManager.getConnection(
                        options.get("jdbc-url"), options.get("user"), options.get("password"));
                Statement select = connection.createStatement()) {
            BackupBucket bucket = BackupExporterMain.bucket(options, s3);
            connection.setAutoCommit(false);
            select.setFetchSize(5_000);
            try (ResultSet rows = select.executeQuery(
                    "SELECT order_id, member_id, total, updated_at FROM demo.orders ORDER BY order_id")) {
                boolean more = rows.next();
                for (int file = 0; more; file++) {
                    Path part = Files.createTempFile("demo-orders-", ".parquet");
                    try {
                        more = parquet(rows, part);
                        put(
                                s3,
                                bucket,
                                folder + "app/demo.orders/1/part-" + String.format("%05d", file) + "-"
                                        + UUID.randomUUID() + ".gz.parquet",
                                Files.readAllBytes(part));
                    } finally {
                        Files.deleteIfExists(part);
                    }
                }
            }
            connection.rollback();
            put(s3, bucket, folder + "app/demo.orders/1/_SUCCESS", new byte[0]);
            List<Map<String, Object>> mappings = new ArrayList<>();
            ORIGINAL_TYPES.forEach((column, type) -> mappings.add(Map.of("columnName", column, "originalType", type)));
            put(
                    s3,
                    bucket,
                    folder + "export_tables_info_" + id + "_from_1_to_1.json",
                    JSON.writeValueAsBytes(Map.of(
                            "perTableStatus",
                            List.of(Map.of(
                                    "target", "app.demo.orders",
                                    "status", "COMPLETE",
                                    "schemaMetadata", Map.of("originalTypeMappings", mappings))))));
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("exportTaskIdentifier", id);
            info.put("sourceArn", SOURCE + SNAPSHOT_DATE.format(snapshot));
            info.put("snapshotTime", snapshot.toString());
            info.put("status", "COMPLETE");
            info.put("percentProgress", 100);
            put(s3, bucket, folder + "export_info_" + id + ".json", JSON.writeValueAsBytes(info));
        }
    }

    /**
     * Writes up to {@value #ROWS_PER_FILE} rows, from the current one on, to {@code file} as gzip Parquet; returns
     * whether rows remain (the cursor then on the first of them).
     */
    private static boolean parquet(ResultSet rows, Path file) throws IOException, SQLException {
        Files.delete(file);
        SimpleGroupFactory groups = new SimpleGroupFactory(TYPE);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration())
                .withType(TYPE)
                .withCompressionCodec(CompressionCodecName.GZIP)
                .build()) {
            for (int count = 0; count < ROWS_PER_FILE; count++) {
                writer.write(groups.newGroup()
                        .append("order_id", rows.getLong(1))
                        .append("member_id", rows.getLong(2))
                        .append("total", rows.getBigDecimal(3).toPlainString())
                        .append("updated_at", rows.getTimestamp(4).toInstant().toString()));
                if (!rows.next()) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void put(S3Client s3, BackupBucket bucket, String key, byte[] bytes) {
        s3.putObject(b -> b.bucket(bucket.bucket()).key(key), RequestBody.fromBytes(bytes));
    }
}
