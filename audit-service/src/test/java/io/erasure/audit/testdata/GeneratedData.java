package io.erasure.audit.testdata;

import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.BackupRow;
import io.erasure.backup.format.PartWriter;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.KeyColumns;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Generated backups with the candidates a correct audit must find, computed the slow, obvious way
 * (every row's identifier looked up in a plain {@code Set}).
 */
public final class GeneratedData {

    public static final long T0_MICROS = 1_706_666_400_000_000L; // 2024-01-31T02:00:00Z

    private GeneratedData() {}

    /** orders(customer_id bigint, order_id text, total decimal, note text), key (customer_id, order_id). */
    public static final BackupSchema ORDERS = new BackupSchema(
            List.of(
                    new ColumnSchema("customer_id", "bigint"), new ColumnSchema("order_id", "text"),
                    new ColumnSchema("total", "decimal"), new ColumnSchema("note", "text")),
            KeyColumns.of(List.of("customer_id"), List.of("order_id")),
            "customer_id");

    /** sessions(account text, device text, started bigint, payload text), key ((account, device), started). */
    public static final BackupSchema SESSIONS = new BackupSchema(
            List.of(
                    new ColumnSchema("account", "text"), new ColumnSchema("device", "text"),
                    new ColumnSchema("started", "bigint"), new ColumnSchema("payload", "text")),
            KeyColumns.of(List.of("account", "device"), List.of("started")),
            "account");

    /** customers(customer_id, deleted_at timestamp), the identifier source; the id column's type is given. */
    public static BackupSchema customers(String idType) {
        return new BackupSchema(
                List.of(new ColumnSchema("customer_id", idType), new ColumnSchema("deleted_at", "timestamp")),
                KeyColumns.partitionOnly("customer_id"),
                "customer_id");
    }

    /** Order rows for customers 1..customers, with odd rows: a null id, an id written as a string, no id field. */
    public static List<BackupRow> orders(int rows, int customers, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        String[] notes = {"plain", "with \"quotes\", commas", "line\nbreak", "ünïcødé", "", "{\"customer_id\":1}"};
        List<BackupRow> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            Map<String, Object> values = new LinkedHashMap<>();
            long customer = 1 + random.nextInt(customers);
            values.put("customer_id", i % 97 == 0 ? null : customer);
            values.put("order_id", "o-" + i);
            values.put("total", new BigDecimal(random.nextInt(10_000) + ".5"));
            values.put("note", notes[i % notes.length]);
            Map<String, Long> writeTimes = new LinkedHashMap<>();
            writeTimes.put("total", T0_MICROS - 1_000_000L * random.nextInt(1_000));
            writeTimes.put("note", T0_MICROS - 1_000_000L * random.nextInt(1_000));
            out.add(new BackupRow(values, writeTimes));
        }
        return out;
    }

    /** Session rows of accounts "acct-1".."acct-N" (some with escapes and non-ASCII), composite partition key. */
    public static List<BackupRow> sessions(int rows, int accounts, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<BackupRow> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            Map<String, Object> values = new LinkedHashMap<>();
            values.put("account", account(1 + random.nextInt(accounts)));
            values.put("device", "dev-" + random.nextInt(5));
            values.put("started", T0_MICROS / 1000 - i);
            values.put("payload", "p" + random.nextInt());
            out.add(BackupRow.of(values));
        }
        return out;
    }

    /** Account names exercise JSON escapes and UTF-8: every 7th has a quote, every 5th is accented. */
    public static String account(int n) {
        if (n % 7 == 0) {
            return "acct-\"" + n + "\"";
        }
        return n % 5 == 0 ? "compte-é-" + n : "acct-" + n;
    }

    /** Customers with deleted_at values; a null leaves the customer not deletable. */
    public static List<BackupRow> customers(Map<Object, String> deletedAt) {
        List<BackupRow> out = new ArrayList<>();
        deletedAt.forEach((id, at) -> {
            Map<String, Object> values = new LinkedHashMap<>();
            values.put("customer_id", id);
            values.put("deleted_at", at);
            out.add(BackupRow.of(values));
        });
        return out;
    }

    /** The candidates of {@code rows} whose identifier is in {@code deletable}, in row order. */
    public static List<Candidate> expectedCandidates(List<BackupRow> rows, BackupSchema schema, Set<?> deletable) {
        List<Candidate> out = new ArrayList<>();
        for (BackupRow row : rows) {
            Object id = row.values().get(schema.identifierColumn());
            if (id != null && deletable.contains(id)) {
                Map<String, Object> key = new LinkedHashMap<>();
                for (String column : schema.keyColumns().primaryKey()) {
                    key.put(column, row.values().get(column));
                }
                out.add(new Candidate(key, id.toString(), row.latestWriteTime()));
            }
        }
        return out;
    }

    /** One part's bytes and its manifest entry. */
    public record Part(byte[] bytes, ManifestPart entry) {}

    public static Part part(
            int index,
            BackupFormat format,
            BackupSchema schema,
            List<BackupRow> rows,
            Predicate<String> writeTimeColumn)
            throws IOException {
        if (!format.streamed()) {
            return ParquetParts.part(index, schema, rows);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> columns = schema.columns().stream().map(ColumnSchema::name).toList();
        PartWriter writer = PartWriter.toStream(
                out,
                S3Layout.partName(index, format),
                format,
                columns,
                columns.stream().filter(writeTimeColumn).toList());
        for (BackupRow row : rows) {
            writer.write(row);
        }
        ManifestPart entry = writer.finish();
        return new Part(out.toByteArray(), entry);
    }

    /** Writes {@code rows} as a snapshot of {@code parts} parts (manifest last) and returns the manifest key. */
    public static String writeSnapshot(
            BackupBucket bucket,
            String dataset,
            BackupLocation location,
            String snapshot,
            BackupSchema schema,
            long cutoffMicros,
            List<BackupRow> rows,
            int parts)
            throws IOException {
        List<String> columns = schema.columns().stream().map(ColumnSchema::name).toList();
        List<ManifestPart> entries = new ArrayList<>();
        int perPart = (rows.size() + parts - 1) / Math.max(1, parts);
        for (int p = 0; p < parts; p++) {
            List<BackupRow> slice =
                    rows.subList(Math.min(rows.size(), p * perPart), Math.min(rows.size(), (p + 1) * perPart));
            if (!location.format().streamed()) {
                Part part = ParquetParts.part(p, schema, slice);
                String key = S3Layout.partKey(location, snapshot, p);
                bucket.s3().putObject(b -> b.bucket(bucket.bucket()).key(key), RequestBody.fromBytes(part.bytes()));
                entries.add(part.entry());
                continue;
            }
            PartWriter writer = PartWriter.toS3(
                    bucket.s3(),
                    bucket.bucket(),
                    S3Layout.partKey(location, snapshot, p),
                    location.format(),
                    columns,
                    columns.stream()
                            .filter(c -> c.equals("total") || c.equals("note"))
                            .toList());
            for (BackupRow row : slice) {
                writer.write(row);
            }
            entries.add(writer.finish());
        }
        bucket.writeManifest(
                location, new BackupManifest(dataset, snapshot, location.format(), schema, cutoffMicros, entries));
        return S3Layout.manifestKey(location, snapshot);
    }
}
