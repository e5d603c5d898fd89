package io.erasure.local.demo;

import io.erasure.backup.export.BackupExporterMain;
import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.Sha256;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.KeyColumns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

/**
 * Backs {@code demo.orders} up the way a team with a data lake would: as Parquet files of its own
 * (snappy, one file per {@value #ROWS_PER_FILE} rows, decimals and UTC timestamps as Parquet types), listed
 * in a manifest of the platform's with the cut-off, the key and a SHA-256 and row count per file. The
 * audit reads them by column; the platform's exporter is not involved.
 */
final class ParquetOrdersExport {

    static final int ROWS_PER_FILE = 20_000;

    private static final MessageType TYPE = MessageTypeParser.parseMessageType("message orders {"
            + " required int64 order_id; required int64 member_id; required int64 total (DECIMAL(10,2));"
            + " required int64 updated_at (TIMESTAMP(MICROS,true)); }");
    private static final BackupSchema SCHEMA = new BackupSchema(
            List.of(
                    new ColumnSchema("order_id", "bigint"),
                    new ColumnSchema("member_id", "bigint"),
                    new ColumnSchema("total", "numeric(10,2)"),
                    new ColumnSchema("updated_at", "timestamp with time zone")),
            KeyColumns.partitionOnly("order_id"),
            "member_id");

    private ParquetOrdersExport() {}

    /**
     * Writes a new snapshot of {@code demo.orders} as {@code dataset}'s Parquet backup.
     *
     * @param options the exporter's options: {@code jdbc-url}, {@code user}, {@code password} and the S3 ones
     */
    static void export(Map<String, String> options, String dataset) throws IOException, SQLException {
        Instant start = Instant.now();
        String snapshot = S3Layout.snapshotName(start);
        BackupLocation location = S3Layout.defaultBackupLocation(dataset, BackupFormat.PARQUET);
        List<ManifestPart> parts = new ArrayList<>();
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
                while (more) {
                    Path file = Files.createTempFile("demo-orders-", ".parquet");
                    Files.delete(file);
                    try {
                        long count = 0;
                        SimpleGroupFactory groups = new SimpleGroupFactory(TYPE);
                        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                                .withConf(new PlainParquetConfiguration())
                                .withType(TYPE)
                                .withCompressionCodec(CompressionCodecName.SNAPPY)
                                .build()) {
                            while (more && count < ROWS_PER_FILE) {
                                writer.write(groups.newGroup()
                                        .append("order_id", rows.getLong(1))
                                        .append("member_id", rows.getLong(2))
                                        .append(
                                                "total",
                                                rows.getBigDecimal(3)
                                                        .movePointRight(2)
                                                        .longValueExact())
                                        .append(
                                                "updated_at",
                                                ChronoUnit.MICROS.between(
                                                        Instant.EPOCH,
                                                        rows.getTimestamp(4).toInstant())));
                                count++;
                                more = rows.next();
                            }
                        }
                        byte[] bytes = Files.readAllBytes(file);
                        String key = S3Layout.partKey(location, snapshot, parts.size());
                        s3.putObject(b -> b.bucket(bucket.bucket()).key(key), RequestBody.fromBytes(bytes));
                        parts.add(new ManifestPart(
                                S3Layout.partName(parts.size(), BackupFormat.PARQUET), count, Sha256.hex(bytes)));
                    } finally {
                        Files.deleteIfExists(file);
                    }
                }
            }
            connection.rollback();
            bucket.writeManifest(
                    location,
                    new BackupManifest(
                            dataset,
                            snapshot,
                            BackupFormat.PARQUET,
                            SCHEMA,
                            CutoffTimestamp.fromBackupStart(start, CutoffTimestamp.DEFAULT_CLOCK_SKEW_MARGIN)
                                    .micros(),
                            parts));
        }
    }
}
