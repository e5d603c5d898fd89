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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.SecretKey;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the log by key, by time window and by run. Payloads are decrypted with their dataset key
 * version; a record whose key was purged reads as {@code purged} with its metadata only. Columns are
 * decrypted only when asked for ({@code withColumns}), which the services allow the RECOVERY role alone.
 */
public final class LogReader {

    public static final int MAX_PAGE = 1_000;
    /** A window spans at most this long: one partition per hour is read. */
    public static final Duration MAX_WINDOW = Duration.ofDays(45);

    /** A key's history: its records, newest first, and the purge that removed them, if any. */
    public record KeyHistory(String dataset, Map<String, Object> key, List<LoggedRecord> records, Instant purgedAt,
                             String purgedBy) {
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
        this.keyPurge = statements.prepare("SELECT purged_at, purged_by FROM " + LogSchema.PURGED_KEYS
                + " WHERE dataset = ? AND key_hash = ?");
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
        return new KeyHistory(dataset, key, records, purge == null ? null : purge.getInstant("purged_at"),
                purge == null ? null : purge.getString("purged_by"));
    }

    /** Records of {@code dataset} deleted in [from, to), oldest hour first. */
    public LogPage window(String dataset, Instant from, Instant to, int limit, String cursor, boolean withColumns) {
        Names.datasetName("dataset", dataset);
        if (from == null || to == null || !from.isBefore(to)) {
            throw new IllegalArgumentException("from must be before to, got from=" + from + ", to=" + to);
        }
        if (Duration.between(from, to).compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException("a window spans at most " + MAX_WINDOW.toDays() + " days (the log keeps 30); got "
                    + Duration.between(from, to));
        }
        Instant first = LogWriter.hourOf(from);
        int hours = (int) Duration.between(first, to.minusNanos(1)).toHours() + 1;
        return page(hours, limit, cursor, withColumns,
                part -> byTime.bind(dataset, first.plus(Duration.ofHours(part)), from, to));
    }

    /** Records of a run (or forward-deletion request), shard by shard. */
    public LogPage run(String originId, int limit, String cursor, boolean withColumns) {
        Names.opaqueId("runId", originId);
        return page(LogSchema.RUN_SHARDS, limit, cursor, withColumns, part -> byRun.bind(originId, part));
    }

    private LogPage page(int parts, int limit, String cursorText, boolean withColumns,
                         java.util.function.IntFunction<BoundStatement> statement) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_PAGE + ", got " + limit);
        }
        Cursor cursor = Cursor.parse(cursorText);
        Keys cache = new Keys();
        List<LoggedRecord> records = new ArrayList<>();
        int part = cursor.part();
        ByteBuffer state = cursor.pagingState();
        while (part < parts && records.size() < limit) {
            ResultSet rows = session.execute(statement.apply(part)
                    .setPageSize(limit - records.size())
                    .setPagingState(state));
            for (int i = rows.getAvailableWithoutFetching(); i > 0; i--) {
                records.add(toRecord(rows.one(), withColumns, cache));
            }
            state = rows.getExecutionInfo().getPagingState();
            if (state == null) {
                part++;
            }
        }
        String next = part < parts ? new Cursor(part, state).render() : null;
        return new LogPage(records, next);
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
                payload = json.readValue(new String(PayloadCipher.decrypt(key.get(), bytes, recordId), StandardCharsets.UTF_8),
                        Payload.class);
            } catch (PayloadCipher.UnreadablePayload e) {
                payload = null;
            }
        }
        boolean purged = payload == null;
        return new LoggedRecord(recordId, dataset, row.getString("key_hash"), row.getInstant("deleted_at"),
                row.getString("run_id"), row.getString("request_id"), row.getString("task_id"), row.getString("batch_id"),
                row.getLong("cutoff_micros"), row.getString("retained_ref"), purged,
                purged ? null : payload.primaryKey(), purged || !withColumns ? null : payload.columns(), anonymised(row),
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
