package io.erasure.audit.testdata;

import io.erasure.backup.format.BackupBucket;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.sync.RequestBody;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes an Amazon RDS snapshot export the way RDS lays it out in S3, under an export prefix: {@code <export>/}
 * holding {@code export_info_<export>.json}, {@code export_tables_info_<export>_from_<n>_to_<m>.json} and each table's
 * Parquet files under {@code <database>/<schema>.<table>/<partition>/}.
 */
public final class RdsExportFiles {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * The automated snapshots of the tests' instance {@code app}, up to the century of their date, so that another
     * instance whose name starts with {@code app-} does not match: what a dataset's {@code backup.sourceArn} names.
     */
    public static final String SOURCE = "arn:aws:rds:eu-west-1:123456789012:snapshot:rds:app-20";

    /** A table's entry in the tables info: its {@code target}, {@code status} and columns (name → source type). */
    public record Table(String target, String status, Map<String, String> columns) {}

    private final BackupBucket bucket;
    private final String prefix;
    private final String id;

    public RdsExportFiles(BackupBucket bucket, String prefix, String id) {
        this.bucket = bucket;
        this.prefix = prefix;
        this.id = id;
    }

    public String folder() {
        return prefix + id + "/";
    }

    /** {@code export_info_<export>.json} of a snapshot of {@link #SOURCE}: its status and, unless null, its time. */
    public void info(String status, @Nullable Instant snapshotTime) {
        info(SOURCE + "26-12-01-02-05", status, snapshotTime);
    }

    /** {@code export_info_<export>.json} of an export of {@code sourceArn}. */
    public void info(String sourceArn, String status, @Nullable Instant snapshotTime) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("exportTaskIdentifier", id);
        info.put("sourceArn", sourceArn);
        info.put("exportOnly", List.of());
        if (snapshotTime != null) {
            info.put("snapshotTime", snapshotTime.toString());
            info.put("taskStartTime", snapshotTime.plusSeconds(600).toString());
        }
        info.put("s3Bucket", bucket.bucket());
        info.put("s3Prefix", prefix);
        info.put("status", status);
        info.put("percentProgress", status.equals("COMPLETE") ? 100 : 40);
        put("export_info_" + id + ".json", JSON.writeValueAsBytes(info));
    }

    /** One {@code export_tables_info} file, for tables {@code from} to {@code to} of the export. */
    public void tables(int from, int to, List<Table> tables) {
        List<Map<String, Object>> statuses = new ArrayList<>();
        for (Table table : tables) {
            List<Map<String, Object>> mappings = new ArrayList<>();
            table.columns()
                    .forEach((column, type) -> mappings.add(Map.of(
                            "columnName",
                            column,
                            "originalType",
                            type,
                            "expectedExportedType",
                            "binary (UTF8)",
                            "originalCharMaxLength",
                            0)));
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("tableStatistics", Map.of("extractionStartTime", "2026-12-01T02:10:00Z"));
            status.put("schemaMetadata", Map.of("originalTypeMappings", mappings));
            status.put("status", table.status());
            status.put("sizeGB", 0.001);
            status.put("target", table.target());
            statuses.add(status);
        }
        put(
                "export_tables_info_" + id + "_from_" + from + "_to_" + to + ".json",
                JSON.writeValueAsBytes(Map.of("perTableStatus", statuses)));
    }

    /** Stores {@code bytes} at {@code name} under the export's folder; returns the object's key. */
    public String put(String name, byte[] bytes) {
        String key = folder() + name;
        bucket.s3().putObject(b -> b.bucket(bucket.bucket()).key(key), RequestBody.fromBytes(bytes));
        return key;
    }
}
