package io.erasure.backup.export;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.erasure.backup.export.cassandra.CassandraTableExport;
import io.erasure.backup.export.postgres.PostgresTableExport;
import io.erasure.backup.export.snapshot.ExportResult;
import io.erasure.backup.export.snapshot.SnapshotExporter;
import io.erasure.backup.export.snapshot.TableExport;
import io.erasure.backup.export.throttle.RowRateLimiter;
import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.S3Clients;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import java.net.InetSocketAddress;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Exports one table to the platform bucket, from the command line or a scheduler (cron, a
 * Kubernetes CronJob). Run it again after a crash: it resumes the unfinished snapshot.
 *
 * <pre>
 * java -cp backup-exporter.jar:... io.erasure.backup.export.BackupExporterMain \
 *   --store=cassandra --contact-points=127.0.0.1:9042 --datacenter=datacenter1 \
 *   --keyspace=shop --table=orders --identifier-column=customer_id \
 *   --dataset=orders --format=JSONL_GZIP --parts=16 --rows-per-second=20000
 *
 *   --store=postgres --jdbc-url=jdbc:postgresql://db:5432/app --user=backup --password=... \
 *   --schema=public --table=customers --identifier-column=customer_id --dataset=customers --rows-per-part=1000000
 * </pre>
 * S3 comes from {@code ERASURE_S3_ENDPOINT} (empty for AWS), {@code ERASURE_S3_REGION},
 * {@code ERASURE_S3_ACCESS_KEY}, {@code ERASURE_S3_SECRET_KEY}, {@code ERASURE_S3_BUCKET},
 * {@code ERASURE_S3_PATH_STYLE}, or the same names as {@code --s3-endpoint=...} options.
 * {@code --prefix} overrides the default location {@code backups/<dataset>/}.
 */
public final class BackupExporterMain {

    private static final Set<String> OPTIONS = Set.of(
            "store",
            "contact-points",
            "datacenter",
            "consistency",
            "keyspace",
            "jdbc-url",
            "user",
            "password",
            "schema",
            "table",
            "identifier-column",
            "dataset",
            "prefix",
            "format",
            "parts",
            "page-size",
            "rows-per-part",
            "rows-per-second",
            "s3-endpoint",
            "s3-region",
            "s3-access-key",
            "s3-secret-key",
            "s3-bucket",
            "s3-path-style");

    private BackupExporterMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        ExportResult result = run(options);
        System.out.println("exported " + result.rows() + " rows in " + result.parts() + " parts to "
                + result.manifestKey()
                + (result.resumed() ? " (resumed: " + result.partsWritten() + " parts written by this run)" : ""));
    }

    /** Runs one export with the options of {@link #main} (without the leading dashes). */
    public static ExportResult run(Map<String, String> o) throws Exception {
        String dataset = required(o, "dataset");
        BackupFormat format = BackupFormat.valueOf(o.getOrDefault("format", "JSONL_GZIP"));
        if (!format.streamed()) {
            throw new IllegalArgumentException("--format " + format + " is read by the audit but not written by the"
                    + " exporter: use JSONL_GZIP, JSONL_ZSTD or CSV");
        }
        BackupLocation location = o.containsKey("prefix")
                ? new BackupLocation(o.get("prefix"), format)
                : S3Layout.defaultBackupLocation(dataset, format);
        RowRateLimiter limiter = o.containsKey("rows-per-second")
                ? RowRateLimiter.perSecond(Double.parseDouble(o.get("rows-per-second")))
                : RowRateLimiter.unlimited();
        try (S3Client s3 = s3Client(o)) {
            SnapshotExporter exporter = new SnapshotExporter(bucket(o, s3));
            String store = required(o, "store");
            if (store.equals("cassandra")) {
                var builder = CqlSession.builder().withLocalDatacenter(o.getOrDefault("datacenter", "datacenter1"));
                for (String point : required(o, "contact-points").split(",")) {
                    String[] hostPort = point.trim().split(":");
                    builder.addContactPoint(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])));
                }
                try (CqlSession session = builder.build();
                        TableExport table = new CassandraTableExport(
                                session,
                                required(o, "keyspace"),
                                required(o, "table"),
                                required(o, "identifier-column"),
                                Integer.parseInt(o.getOrDefault("parts", "16")),
                                Integer.parseInt(o.getOrDefault("page-size", "1000")),
                                DefaultConsistencyLevel.valueOf(o.getOrDefault("consistency", "LOCAL_QUORUM")))) {
                    return exporter.export(dataset, location, table, limiter);
                }
            }
            if (store.equals("postgres")) {
                try (Connection connection =
                                DriverManager.getConnection(required(o, "jdbc-url"), o.get("user"), o.get("password"));
                        TableExport table = new PostgresTableExport(
                                connection,
                                o.getOrDefault("schema", "public"),
                                required(o, "table"),
                                required(o, "identifier-column"),
                                format,
                                Integer.parseInt(o.getOrDefault("rows-per-part", "1000000")))) {
                    return exporter.export(dataset, location, table, limiter);
                }
            }
            throw new IllegalArgumentException("--store must be cassandra or postgres, got '" + store + "'");
        }
    }

    /** The S3 client the {@code s3-*} options (or the {@code ERASURE_S3_*} variables) describe. */
    public static S3Client s3Client(Map<String, String> o) {
        String endpoint = s3(o, "endpoint", null);
        return S3Clients.create(
                endpoint == null || endpoint.isBlank() ? null : URI.create(endpoint),
                s3(o, "region", "us-east-1"),
                s3(o, "access-key", null),
                s3(o, "secret-key", null),
                Boolean.parseBoolean(s3(o, "path-style", "false")));
    }

    /** The platform bucket the {@code s3-bucket} option (or {@code ERASURE_S3_BUCKET}) names, through {@code s3}. */
    public static BackupBucket bucket(Map<String, String> o, S3Client s3) {
        return new BackupBucket(s3, required(Map.of("s3-bucket", s3(o, "bucket", "")), "s3-bucket"));
    }

    static Map<String, String> parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0 || !OPTIONS.contains(arg.substring(2, eq))) {
                throw new IllegalArgumentException(
                        "unknown argument '" + arg + "'; options are --name=value with name one of "
                                + OPTIONS.stream().sorted().toList());
            }
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        return options;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }

    private static String s3(Map<String, String> options, String name, String fallback) {
        String value = options.get("s3-" + name);
        if (value == null) {
            value = System.getenv("ERASURE_S3_" + name.toUpperCase().replace('-', '_'));
        }
        return value == null ? fallback : value;
    }
}
