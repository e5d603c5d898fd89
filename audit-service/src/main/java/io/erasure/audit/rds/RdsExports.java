package io.erasure.audit.rds;

import io.erasure.audit.bucket.BucketReads;
import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupLayout;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.DatasetSpec;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;
import tools.jackson.databind.JsonNode;

/**
 * Amazon RDS (and Aurora) snapshot exports of a PostgreSQL table, under a {@link BackupLayout#RDS_EXPORT} prefix:
 * the export task's S3 prefix, under which each export writes {@code <export>/} with
 * <ul>
 *   <li>{@code export_info_<export>.json}: the task, its {@code status} and the {@code snapshotTime} the data is as
 *       of;
 *   <li>{@code export_tables_info_<export>_from_<n>_to_<m>.json}: {@code perTableStatus}, per table its
 *       {@code target} ({@code <database>.<schema>.<table>}), {@code status} and
 *       {@code schemaMetadata.originalTypeMappings} (each column's name and source type);
 *   <li>{@code <database>/<schema>.<table>/<n>/part-*.parquet}: the table's rows, and {@code _SUCCESS} markers.
 * </ul>
 *
 * <p>An export is audited only once its export info says {@code COMPLETE} and its tables info lists the dataset's
 * table, once, as {@code COMPLETE}; newer exports that are not are passed over with a warning saying why. The cut-off
 * is the {@code snapshotTime} minus the clock-skew margin: the export holds the table as it was then. An export whose
 * info has no {@code snapshotTime} is refused: nothing else in it says what the rows are as of, and a guessed time
 * could let the audit delete rows written after the snapshot. Nothing in an export checksums its files, so each file is
 * pinned by the size and ETag listed when the audit is planned.
 */
public final class RdsExports {

    private static final Logger log = LoggerFactory.getLogger(RdsExports.class);

    private static final String COMPLETE = "COMPLETE";
    /**
     * A table folder's files: Parquet parts and the writer's success markers, in a batch folder ({@code <n>/}) or, in
     * exports of AWS's older naming, right in the table folder.
     */
    private static final Pattern TABLE_FILE = Pattern.compile("([0-9]+/)?(_SUCCESS|part-[^/]+\\.parquet)");
    /** An export task's identifier as RDS allows it: a letter, then letters, digits and hyphens. */
    private static final Pattern EXPORT_ID = Pattern.compile("[A-Za-z][A-Za-z0-9-]{0,254}");

    private final BucketReads reads;
    private final Duration skewMargin;

    public RdsExports(S3Client s3, String bucket, Duration skewMargin) {
        this.reads = new BucketReads(s3, bucket);
        this.skewMargin = skewMargin;
    }

    /** With the default clock-skew margin. */
    public static RdsExports of(BackupBucket bucket) {
        return new RdsExports(bucket.s3(), bucket.bucket(), CutoffTimestamp.DEFAULT_CLOCK_SKEW_MARGIN);
    }

    /**
     * One export chosen for an audit.
     *
     * @param id           the export task's identifier (its folder's name)
     * @param folder       the export's folder, {@code <prefix><id>/}
     * @param snapshotTime what the export's rows are as of
     * @param table        the dataset's table in it
     */
    public record Planned(String id, String folder, Instant snapshotTime, long cutoffMicros, ExportedTable table) {}

    /**
     * The newest complete export under {@code location} that holds the dataset's table as {@code COMPLETE}.
     *
     * @throws BackupIntegrityException if there is none, saying why the newest is not
     */
    public Planned latestComplete(BackupLocation location, DatasetSpec spec, Instant now) {
        String target = target(location, spec);
        Map<String, Instant> snapshots = new LinkedHashMap<>();
        String newest = null;
        for (String id : reads.folders(location.prefix())) {
            if (!EXPORT_ID.matcher(id).matches()) {
                continue; // not an export task's folder
            }
            try {
                snapshots.put(id, snapshotTime(location, id, now));
            } catch (BackupIntegrityException e) {
                newest = newest == null ? e.getMessage() : newest;
            }
        }
        List<String> newestFirst = snapshots.keySet().stream()
                .sorted(Comparator.comparing((String id) -> snapshots.get(id))
                        .thenComparing(Comparator.naturalOrder())
                        .reversed())
                .toList();
        for (String id : newestFirst) {
            try {
                Planned planned = read(location, spec, id, snapshots.get(id), target);
                if (newest != null) {
                    log.warn(
                            "RDS export '{}' of {} under s3://{}/{} is audited; a newer or unreadable one is not: {}",
                            id,
                            target,
                            reads.bucket(),
                            location.prefix(),
                            newest);
                }
                return planned;
            } catch (BackupIntegrityException e) {
                newest = newest == null || id.equals(newestFirst.get(0)) ? e.getMessage() : newest;
            }
        }
        throw new BackupIntegrityException("no complete RDS export of " + target + " under s3://" + reads.bucket() + "/"
                + location.prefix() + ": an export is complete once its export_info_<export>.json says " + COMPLETE
                + " with a snapshotTime and its export_tables_info lists the table as " + COMPLETE
                + (newest == null ? "; there is no export folder" : "; the newest: " + newest));
    }

    /** The export's name of the dataset's table: {@code <database>.<schema>.<table>}. */
    static String target(BackupLocation location, DatasetSpec spec) {
        return Objects.requireNonNull(location.database(), "an RDS_EXPORT location names its database") + "."
                + spec.namespace() + "." + spec.table();
    }

    /** The export's snapshot time, if its export info says it is complete. */
    private Instant snapshotTime(BackupLocation location, String id, Instant now) {
        String key = location.prefix() + id + "/export_info_" + id + ".json";
        String where = "s3://" + reads.bucket() + "/" + key;
        ResponseBytes<GetObjectResponse> object;
        try {
            object = reads.object(key);
        } catch (BackupIntegrityException e) {
            throw new BackupIntegrityException("export '" + id + "' has no " + where
                    + ": the export is still running, or the folder is not an export task's");
        }
        JsonNode info = reads.json(key, object.asByteArray());
        String named = text(info, "exportTaskIdentifier");
        if (!id.equals(named)) {
            throw new BackupIntegrityException(
                    where + " names export " + (named == null ? "nothing" : "'" + named + "'") + ", not '" + id
                            + "', the folder it lies in: it was copied from another export");
        }
        String source = text(info, "sourceArn");
        String expected = Objects.requireNonNull(location.sourceArn(), "an RDS_EXPORT location names its source");
        if (source == null || !source.startsWith(expected)) {
            throw new BackupIntegrityException("export '" + id + "' is of "
                    + (source == null ? "no named source (its export info has no sourceArn)" : source)
                    + ", not of a source starting with " + expected + " (backup.sourceArn): another instance's or a"
                    + " copied snapshot's export is never audited for this dataset");
        }
        String status = text(info, "status");
        if (!COMPLETE.equals(status)) {
            throw new BackupIntegrityException(
                    "export '" + id + "' is " + (status == null ? "without a status" : status) + ", not " + COMPLETE);
        }
        JsonNode progress = info.get("percentProgress");
        if (progress != null && !(progress.isNumber() && progress.asDouble() == 100)) {
            throw new BackupIntegrityException("export '" + id + "' says " + COMPLETE + " at percentProgress "
                    + progress + ", not 100: " + where + " contradicts itself");
        }
        Instant snapshot = time(info, "snapshotTime", where);
        if (snapshot == null) {
            throw new BackupIntegrityException(where + " has no snapshotTime: the audit cannot tell what the export's"
                    + " rows are as of, so it has no cut-off. RDS writes it in every export info; check that the"
                    + " folder is an export RDS wrote, not files copied or edited by hand");
        }
        Instant taskStart = time(info, "taskStartTime", where);
        if (taskStart != null && snapshot.isAfter(taskStart)) {
            throw new BackupIntegrityException(
                    "export '" + id + "' has snapshotTime " + snapshot + ", after its" + " taskStartTime " + taskStart
                            + ": a snapshot is taken before it is exported; the file was edited");
        }
        Instant uploaded = object.response().lastModified();
        Instant latest = uploaded == null || uploaded.isAfter(now) ? now : uploaded;
        if (snapshot.isAfter(latest.plus(BackupBucket.CLOCK_SKEW))) {
            throw new BackupIntegrityException("export '" + id + "' has snapshotTime " + snapshot + ", after "
                    + (latest.equals(now) ? "now (" + now + ")" : "its export info was written (" + uploaded + ")")
                    + ": a snapshot is taken before it is exported; the clocks disagree or the file was edited");
        }
        return snapshot;
    }

    /** The ISO-8601 time {@code field} of {@code info}, or null if absent. */
    private static @Nullable Instant time(JsonNode info, String field, String where) {
        String value = text(info, field);
        if (value == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeException e) {
            throw new BackupIntegrityException(where + " has " + field + " '" + value
                    + "', which is not an ISO-8601 time with its offset (such as 2026-12-01T02:00:05.123Z)");
        }
    }

    private Planned read(BackupLocation location, DatasetSpec spec, String id, Instant snapshot, String target) {
        String folder = location.prefix() + id + "/";
        JsonNode status = tableStatus(folder, id, target);
        String tableStatus = text(status, "status");
        if (!COMPLETE.equals(tableStatus)) {
            throw new BackupIntegrityException("export '" + id + "' holds " + target + " as "
                    + (tableStatus == null ? "without a status" : tableStatus) + ", not " + COMPLETE
                    + (text(status, "warningMessage") == null ? "" : ": " + text(status, "warningMessage")));
        }
        BackupSchema schema = schema(id, target, status, spec);
        String tableFolder = folder + location.database() + "/" + spec.namespace() + "." + spec.table() + "/";
        List<ExportedPart> parts = new ArrayList<>();
        for (S3Object object : reads.objects(tableFolder)) {
            String name = object.key().substring(tableFolder.length());
            if (!TABLE_FILE.matcher(name).matches()) {
                throw new BackupIntegrityException("export '" + id + "' holds s3://" + reads.bucket() + "/"
                        + object.key()
                        + ", which is neither a Parquet part nor a _SUCCESS marker ([<n>/]part-*.parquet):"
                        + " the table's folder was written to by something else; remove it or export again");
            }
            if (name.endsWith("_SUCCESS")) {
                continue;
            }
            if (object.size() == null || object.size() <= 0 || object.eTag() == null) {
                throw new BackupIntegrityException(
                        "export '" + id + "' holds an empty s3://" + reads.bucket() + "/" + object.key());
            }
            parts.add(new ExportedPart(object.key(), object.size(), object.eTag()));
        }
        if (parts.isEmpty()) {
            // an empty table has nothing to audit; a table whose files were removed must not pass for an empty one
            throw new BackupIntegrityException("export '" + id + "' lists " + target + " as " + COMPLETE + " but holds"
                    + " no Parquet file of it under s3://" + reads.bucket() + "/" + tableFolder);
        }
        long cutoff = CutoffTimestamp.fromBackupStart(snapshot, skewMargin).micros();
        return new Planned(id, folder, snapshot, cutoff, new ExportedTable(target, schema, parts));
    }

    /** The table's entry in the export's tables info: exactly one. */
    private JsonNode tableStatus(String folder, String id, String target) {
        List<S3Object> infos = reads.objects(folder + "export_tables_info_" + id + "_from_");
        if (infos.isEmpty()) {
            throw new BackupIntegrityException("export '" + id + "' has no export_tables_info_" + id
                    + "_from_*.json under s3://" + reads.bucket() + "/" + folder + ": it has not finished");
        }
        JsonNode found = null;
        for (S3Object info : infos) {
            JsonNode tables = reads.json(info.key()).get("perTableStatus");
            if (tables == null || !tables.isArray()) {
                throw new BackupIntegrityException(
                        "s3://" + reads.bucket() + "/" + info.key() + " has no perTableStatus list");
            }
            for (JsonNode table : tables) {
                if (target.equals(text(table, "target")) && table.has("status")) {
                    if (found != null) {
                        throw new BackupIntegrityException("export '" + id + "' lists " + target
                                + " twice in its tables info: which one holds the table cannot be told");
                    }
                    found = table;
                }
            }
        }
        if (found == null) {
            throw new BackupIntegrityException("export '" + id + "' does not hold " + target + ": its tables info"
                    + " does not list it (was it left out of the export's ExportOnly, or is backup.database wrong?)");
        }
        return found;
    }

    /** The identifier and key columns with the source's types; a column the export does not have fails. */
    private static BackupSchema schema(String id, String target, JsonNode status, DatasetSpec spec) {
        JsonNode metadata = status.get("schemaMetadata");
        JsonNode mappings = metadata == null ? null : metadata.get("originalTypeMappings");
        if (mappings == null || !mappings.isArray()) {
            throw new BackupIntegrityException("export '" + id + "' gives no schemaMetadata.originalTypeMappings for "
                    + target + ": the columns' source types cannot be told");
        }
        Map<String, String> types = new LinkedHashMap<>();
        for (JsonNode mapping : mappings) {
            String column = text(mapping, "columnName");
            String type = text(mapping, "originalType");
            if (column != null && type != null) {
                types.put(column, type.toLowerCase(Locale.ROOT));
            }
        }
        LinkedHashSet<String> needed = new LinkedHashSet<>(spec.keyColumns().primaryKey());
        needed.add(spec.identifierColumn());
        List<ColumnSchema> columns = new ArrayList<>();
        for (String column : needed) {
            String type = types.get(column);
            if (type == null) {
                throw new BackupIntegrityException("export '" + id + "' of " + target + " has no column '" + column
                        + "' ("
                        + (column.equals(spec.identifierColumn())
                                ? "the dataset's identifier column"
                                : "a" + " primary key column of dataset '" + spec.name() + "'")
                        + "); its columns are "
                        + types.keySet());
            }
            columns.add(new ColumnSchema(column, type));
        }
        return new BackupSchema(columns, spec.keyColumns(), spec.identifierColumn());
    }

    private static @Nullable String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isString() ? null : value.asString();
    }
}
