package io.erasure.deletionlog.client;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.check.Names;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntFunction;
import javax.crypto.SecretKey;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the log by key (one key, or a bounded set of keys in multi-key statements), by time window and by run.
 * Payloads are decrypted with their dataset key version; a record whose key was purged reads as {@code purged} with
 * its metadata only. Columns are decrypted only when asked for ({@code withColumns}), which the services allow the
 * RECOVERY role alone. Windows and runs are read a page at a time ({@code limit} records and a cursor), so a reader
 * never holds more than a page; their {@linkplain RecordHeader headers} (clear metadata, no payload) can be read the
 * same way, to count or sort a scope without decrypting it.
 */
public final class LogReader {

    public static final int MAX_PAGE = 1_000;
    /**
     * The most keys one multi-key statement reads ({@code key_hash IN ?}, one partition each): the coordinator reads
     * those partitions for one request, so the set stays small enough not to make it a hot spot.
     */
    public static final int KEYS_PER_QUERY = 100;
    /** A window spans at most this long: one partition per hour is read. */
    public static final Duration MAX_WINDOW = Duration.ofDays(45);

    private static final String HEADER_COLUMNS = "record_id, dataset, key_hash, deleted_at, key_version, anonymised";

    /** A key's history: its records, newest first, and the purge that removed them, if any. */
    public record KeyHistory(
            String dataset, Map<String, Object> key, List<LoggedRecord> records, Instant purgedAt, String purgedBy) {
        public boolean purged() {
            return purgedAt != null;
        }
    }

    private final CqlSession session;
    private final DatasetKeys keys;
    private final JsonMapper json;
    private final PreparedStatement byKey;
    private final PreparedStatement byTime;
    private final PreparedStatement byRun;
    private final PreparedStatement keyPurge;
    private final PreparedStatement byKeys;
    private final PreparedStatement keyPurges;
    private final PreparedStatement headersByKeys;
    private final PreparedStatement headersByTime;
    private final PreparedStatement headersByRun;

    public LogReader(CqlSession session, DatasetKeys keys, JsonMapper json) {
        this(session, keys, json, LogStatements.DEFAULT);
    }

    public LogReader(CqlSession session, DatasetKeys keys, JsonMapper json, ConsistencyLevel consistency) {
        LogStatements statements = new LogStatements(session, consistency);
        this.session = session;
        this.keys = keys;
        this.json = json;
        this.byKey = statements.prepare("SELECT " + LogSchema.RECORD_COLUMNS + " FROM " + LogSchema.BY_KEY
                + " WHERE dataset = ? AND key_hash = ?");
        this.byTime = statements.prepare("SELECT " + LogSchema.RECORD_COLUMNS + " FROM " + LogSchema.BY_TIME
                + " WHERE dataset = ? AND hour = ? AND deleted_at >= ? AND deleted_at < ?");
        this.byRun = statements.prepare("SELECT " + LogSchema.RECORD_COLUMNS + " FROM " + LogSchema.BY_RUN
                + " WHERE origin_id = ? AND shard = ?");
        this.keyPurge = statements.prepare(
                "SELECT purged_at, purged_by FROM " + LogSchema.PURGED_KEYS + " WHERE dataset = ? AND key_hash = ?");
        this.byKeys = statements.prepare("SELECT " + LogSchema.RECORD_COLUMNS + " FROM " + LogSchema.BY_KEY
                + " WHERE dataset = ? AND key_hash IN ?");
        this.keyPurges = statements.prepare("SELECT key_hash, purged_at, purged_by FROM " + LogSchema.PURGED_KEYS
                + " WHERE dataset = ? AND key_hash IN ?");
        this.headersByKeys = statements.prepare(
                "SELECT " + HEADER_COLUMNS + " FROM " + LogSchema.BY_KEY + " WHERE dataset = ? AND key_hash IN ?");
        this.headersByTime = statements.prepare("SELECT " + HEADER_COLUMNS + " FROM " + LogSchema.BY_TIME
                + " WHERE dataset = ? AND hour = ? AND deleted_at >= ? AND deleted_at < ?");
        this.headersByRun = statements.prepare(
                "SELECT " + HEADER_COLUMNS + " FROM " + LogSchema.BY_RUN + " WHERE origin_id = ? AND shard = ?");
    }

    public KeyHistory byKey(String dataset, Map<String, Object> key, boolean withColumns) {
        Names.datasetName("dataset", dataset);
        String hash = KeyHash.of(dataset, key);
        Keys cache = new Keys();
        List<LoggedRecord> records = new ArrayList<>();
        for (Row row : session.execute(byKey.bind(dataset, hash))) {
            records.add(toRecord(row, withColumns, cache));
        }
        records.sort(Comparator.comparing(LoggedRecord::deletedAt).reversed());
        Row purge = session.execute(keyPurge.bind(dataset, hash)).one();
        return new KeyHistory(
                dataset,
                key,
                records,
                purge == null ? null : purge.getInstant("purged_at"),
                purge == null ? null : purge.getString("purged_by"));
    }

    /**
     * The histories of {@code keys} (at most {@value #MAX_PAGE}), one per key and in their order, as {@link #byKey}
     * reads them: in multi-key statements of at most {@value #KEYS_PER_QUERY} keys each, for the records and for the
     * purge markers, instead of two point reads per key.
     */
    public List<KeyHistory> byKeys(String dataset, List<Map<String, Object>> keys, boolean withColumns) {
        Names.datasetName("dataset", dataset);
        if (keys.size() > MAX_PAGE) {
            throw new IllegalArgumentException(
                    "at most " + MAX_PAGE + " keys per read, got " + keys.size() + "; read a larger set in parts");
        }
        List<String> hashes = keys.stream().map(key -> KeyHash.of(dataset, key)).toList();
        Keys cache = new Keys();
        Map<String, List<LoggedRecord>> records = new HashMap<>();
        Map<String, Row> purges = new HashMap<>();
        for (List<String> part : parts(new LinkedHashSet<>(hashes))) {
            for (Row row : session.execute(byKeys.bind(dataset, part))) {
                records.computeIfAbsent(row.getString("key_hash"), h -> new ArrayList<>())
                        .add(toRecord(row, withColumns, cache));
            }
            for (Row row : session.execute(keyPurges.bind(dataset, part))) {
                purges.put(row.getString("key_hash"), row);
            }
        }
        List<KeyHistory> histories = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            String hash = hashes.get(i);
            List<LoggedRecord> history = new ArrayList<>(records.getOrDefault(hash, List.of()));
            history.sort(Comparator.comparing(LoggedRecord::deletedAt).reversed());
            Row purge = purges.get(hash);
            histories.add(new KeyHistory(
                    dataset,
                    keys.get(i),
                    history,
                    purge == null ? null : purge.getInstant("purged_at"),
                    purge == null ? null : purge.getString("purged_by")));
        }
        return histories;
    }

    /**
     * The headers of every record of the keys {@code keyHashes} of {@code dataset} (at most {@value #MAX_PAGE}), by key
     * hash, each key's newest first (a key without records is left out); in multi-key statements of at most
     * {@value #KEYS_PER_QUERY} keys, reading no payload.
     */
    public Map<String, List<RecordHeader>> headersByKey(String dataset, Collection<String> keyHashes) {
        Names.datasetName("dataset", dataset);
        Collection<String> distinct = new LinkedHashSet<>(keyHashes);
        if (distinct.size() > MAX_PAGE) {
            throw new IllegalArgumentException(
                    "at most " + MAX_PAGE + " keys per read, got " + distinct.size() + "; read a larger set in parts");
        }
        Keys cache = new Keys();
        Map<String, List<RecordHeader>> headers = new LinkedHashMap<>();
        for (List<String> part : parts(distinct)) {
            for (Row row : session.execute(headersByKeys.bind(dataset, part))) {
                headers.computeIfAbsent(row.getString("key_hash"), h -> new ArrayList<>())
                        .add(toHeader(row, cache));
            }
        }
        headers.values()
                .forEach(list ->
                        list.sort(Comparator.comparing(RecordHeader::deletedAt).reversed()));
        return headers;
    }

    /** Records of {@code dataset} deleted in [from, to), oldest hour first. */
    public LogPage window(String dataset, Instant from, Instant to, int limit, String cursor, boolean withColumns) {
        Names.datasetName("dataset", dataset);
        int hours = hours(from, to);
        Instant first = LogWriter.hourOf(from);
        Keys cache = new Keys();
        Paged<LoggedRecord> page = page(
                hours,
                limit,
                cursor,
                part -> byTime.bind(dataset, first.plus(Duration.ofHours(part)), from, to),
                row -> toRecord(row, withColumns, cache));
        return new LogPage(page.items(), page.next());
    }

    /**
     * The {@linkplain RecordHeader headers} of {@link #window}'s records, in the same order; its cursors are not
     * interchangeable with {@link #window}'s.
     */
    public HeaderPage windowHeaders(String dataset, Instant from, Instant to, int limit, String cursor) {
        Names.datasetName("dataset", dataset);
        int hours = hours(from, to);
        Instant first = LogWriter.hourOf(from);
        Keys cache = new Keys();
        Paged<RecordHeader> page = page(
                hours,
                limit,
                cursor,
                part -> headersByTime.bind(dataset, first.plus(Duration.ofHours(part)), from, to),
                row -> toHeader(row, cache));
        return new HeaderPage(page.items(), page.next());
    }

    /** Records of a run (or forward-deletion request), shard by shard. */
    public LogPage run(String originId, int limit, String cursor, boolean withColumns) {
        Names.opaqueId("runId", originId);
        Keys cache = new Keys();
        Paged<LoggedRecord> page = page(
                LogSchema.RUN_SHARDS,
                limit,
                cursor,
                part -> byRun.bind(originId, part),
                row -> toRecord(row, withColumns, cache));
        return new LogPage(page.items(), page.next());
    }

    /**
     * The {@linkplain RecordHeader headers} of {@link #run}'s records, in the same order; its cursors are not
     * interchangeable with {@link #run}'s.
     */
    public HeaderPage runHeaders(String originId, int limit, String cursor) {
        Names.opaqueId("runId", originId);
        Keys cache = new Keys();
        Paged<RecordHeader> page = page(
                LogSchema.RUN_SHARDS,
                limit,
                cursor,
                part -> headersByRun.bind(originId, part),
                row -> toHeader(row, cache));
        return new HeaderPage(page.items(), page.next());
    }

    /** The hour partitions a window [from, to) spans, checked. */
    private static int hours(Instant from, Instant to) {
        if (from == null || to == null || !from.isBefore(to)) {
            throw new IllegalArgumentException("from must be before to, got from=" + from + ", to=" + to);
        }
        if (Duration.between(from, to).compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException("a window spans at most " + MAX_WINDOW.toDays()
                    + " days (the log keeps 30); got " + Duration.between(from, to));
        }
        return (int) Duration.between(LogWriter.hourOf(from), to.minusNanos(1)).toHours() + 1;
    }

    private record Paged<T>(List<T> items, String next) {}

    private <T> Paged<T> page(
            int parts, int limit, String cursorText, IntFunction<BoundStatement> statement, Function<Row, T> read) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_PAGE + ", got " + limit);
        }
        Cursor cursor = Cursor.parse(cursorText);
        List<T> items = new ArrayList<>();
        int part = cursor.part();
        ByteBuffer state = cursor.pagingState();
        while (part < parts && items.size() < limit) {
            ResultSet rows = session.execute(
                    statement.apply(part).setPageSize(limit - items.size()).setPagingState(state));
            for (int i = rows.getAvailableWithoutFetching(); i > 0; i--) {
                items.add(read.apply(rows.one()));
            }
            state = rows.getExecutionInfo().getPagingState();
            if (state == null) {
                part++;
            }
        }
        return new Paged<>(items, part < parts ? new Cursor(part, state).render() : null);
    }

    /** {@code hashes} in lists of at most {@value #KEYS_PER_QUERY}, one multi-key statement each. */
    private static List<List<String>> parts(Collection<String> hashes) {
        List<String> all = List.copyOf(hashes);
        List<List<String>> parts = new ArrayList<>();
        for (int from = 0; from < all.size(); from += KEYS_PER_QUERY) {
            parts.add(all.subList(from, Math.min(all.size(), from + KEYS_PER_QUERY)));
        }
        return parts;
    }

    private RecordHeader toHeader(Row row, Keys cache) {
        String dataset = row.getString("dataset");
        return new RecordHeader(
                row.getString("record_id"),
                dataset,
                row.getString("key_hash"),
                row.getInstant("deleted_at"),
                cache.key(dataset, row.getInt("key_version")).isEmpty(),
                anonymised(row));
    }

    private LoggedRecord toRecord(Row row, boolean withColumns, Keys cache) {
        String recordId = row.getString("record_id");
        String dataset = row.getString("dataset");
        Optional<SecretKey> key = cache.key(dataset, row.getInt("key_version"));
        Payload payload = null;
        if (key.isPresent()) {
            try {
                ByteBuffer sealed = row.getByteBuffer("payload");
                byte[] bytes = new byte[sealed.remaining()];
                sealed.duplicate().get(bytes);
                payload = json.readValue(
                        new String(PayloadCipher.decrypt(key.get(), bytes, recordId), StandardCharsets.UTF_8),
                        Payload.class);
            } catch (PayloadCipher.UnreadablePayload e) {
                payload = null;
            }
        }
        boolean purged = payload == null;
        return new LoggedRecord(
                recordId,
                dataset,
                row.getString("key_hash"),
                row.getInstant("deleted_at"),
                row.getString("run_id"),
                row.getString("request_id"),
                row.getString("task_id"),
                row.getString("batch_id"),
                row.getLong("cutoff_micros"),
                row.getString("retained_ref"),
                purged,
                purged ? null : payload.primaryKey(),
                purged || !withColumns ? null : payload.columns(),
                anonymised(row),
                keptNewer(row));
    }

    /** Null in a row written before the column existed, or of a record that applied as logged. */
    static boolean keptNewer(Row row) {
        return !row.isNull("kept_newer") && row.getBoolean("kept_newer");
    }

    /** Null in a row written before the column existed: such records deleted whole rows. */
    static boolean anonymised(Row row) {
        return !row.isNull("anonymised") && row.getBoolean("anonymised");
    }

    /** Dataset keys looked up once per read. */
    private final class Keys {
        private final Map<String, Optional<SecretKey>> byVersion = new HashMap<>();

        Optional<SecretKey> key(String dataset, int version) {
            return byVersion.computeIfAbsent(dataset + "|" + version, k -> keys.key(dataset, version));
        }
    }
}
