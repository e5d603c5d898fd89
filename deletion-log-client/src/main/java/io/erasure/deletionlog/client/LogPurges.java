package io.erasure.deletionlog.client;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * "Purge now": a legal erasure of the log itself, before the TTL would have removed the records.
 * <ul>
 *   <li>A key: its rows are deleted from all three record tables and a marker says when and by whom,
 *       so reads answer "purged" and a late re-delivery from the topic is not stored again.</li>
 *   <li>A dataset: every version of its data key is dropped, so every payload written so far is
 *       unreadable at once (crypto-shredding) and reads as purged; the rows expire by TTL. New records
 *       get a new key.</li>
 * </ul>
 * Every purge is kept in {@code purges} (who, when, why), which does not expire.
 */
public final class LogPurges {

    public enum Scope {
        KEY,
        DATASET
    }

    public record Purge(
            String purgeId,
            String dataset,
            Scope scope,
            String keyHash,
            Instant purgedAt,
            String purgedBy,
            String reason,
            int recordsRemoved) {}

    private final CqlSession session;
    private final DatasetKeys keys;
    private final Clock clock;
    private final long ttlSeconds;
    private final PreparedStatement keyRows;
    private final PreparedStatement deleteByKey;
    private final PreparedStatement deleteByTime;
    private final PreparedStatement deleteByRun;
    private final PreparedStatement markKey;
    private final PreparedStatement markDataset;
    private final PreparedStatement logPurge;
    private final PreparedStatement history;

    public LogPurges(CqlSession session, DatasetKeys keys, Clock clock, Duration ttl) {
        this(session, keys, clock, ttl, LogStatements.DEFAULT);
    }

    public LogPurges(CqlSession session, DatasetKeys keys, Clock clock, Duration ttl, ConsistencyLevel consistency) {
        LogStatements statements = new LogStatements(session, consistency);
        this.session = session;
        this.keys = keys;
        this.clock = clock;
        this.ttlSeconds = LogSchema.requireTtl(ttl);
        this.keyRows = statements.prepare("SELECT record_id, deleted_at, run_id, request_id FROM " + LogSchema.BY_KEY
                + " WHERE dataset = ? AND key_hash = ?");
        this.deleteByKey =
                statements.prepare("DELETE FROM " + LogSchema.BY_KEY + " WHERE dataset = ? AND key_hash = ?");
        this.deleteByTime = statements.prepare("DELETE FROM " + LogSchema.BY_TIME
                + " WHERE dataset = ? AND hour = ? AND deleted_at = ? AND record_id = ?");
        this.deleteByRun = statements.prepare(
                "DELETE FROM " + LogSchema.BY_RUN + " WHERE origin_id = ? AND shard = ? AND record_id = ?");
        this.markKey = statements.prepare("INSERT INTO " + LogSchema.PURGED_KEYS
                + " (dataset, key_hash, purged_at, purged_by)" + " VALUES (?, ?, ?, ?) USING TTL ?");
        this.markDataset = statements.prepare(
                "INSERT INTO " + LogSchema.PURGED_DATASETS + " (dataset, purged_at, purged_by)" + " VALUES (?, ?, ?)");
        this.logPurge = statements.prepare(
                "INSERT INTO " + LogSchema.PURGES + " (dataset, purged_at, purge_id, scope, key_hash,"
                        + " purged_by, reason, records_removed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        this.history = statements.prepare(
                "SELECT purged_at, purge_id, scope, key_hash, purged_by, reason, records_removed FROM "
                        + LogSchema.PURGES + " WHERE dataset = ?");
    }

    public Purge purgeKey(String dataset, Map<String, Object> key, String purgedBy, String reason) {
        Names.datasetName("dataset", dataset);
        Require.nonNull("key", key);
        String hash = KeyHash.of(dataset, key);
        Instant now = clock.instant();
        // the marker first: from now on the ingester drops re-deliveries of this key's records
        session.execute(markKey.bind(dataset, hash, now, purgedBy, (int) ttlSeconds));
        int removed = 0;
        for (Row row : session.execute(keyRows.bind(dataset, hash))) {
            String recordId = row.getString("record_id");
            Instant deletedAt = row.getInstant("deleted_at");
            String origin = row.getString("run_id") != null ? row.getString("run_id") : row.getString("request_id");
            session.execute(deleteByTime.bind(dataset, LogWriter.hourOf(deletedAt), deletedAt, recordId));
            session.execute(deleteByRun.bind(origin, LogWriter.shardOf(recordId), recordId));
            removed++;
        }
        session.execute(deleteByKey.bind(dataset, hash));
        return record(
                new Purge(UUID.randomUUID().toString(), dataset, Scope.KEY, hash, now, purgedBy, reason, removed));
    }

    public Purge purgeDataset(String dataset, String purgedBy, String reason) {
        Names.datasetName("dataset", dataset);
        Instant now = clock.instant();
        session.execute(markDataset.bind(dataset, now, purgedBy));
        keys.dropAll(dataset);
        return record(new Purge(UUID.randomUUID().toString(), dataset, Scope.DATASET, null, now, purgedBy, reason, 0));
    }

    /** The purges of a dataset, newest first. */
    public List<Purge> history(String dataset) {
        Names.datasetName("dataset", dataset);
        List<Purge> purges = new ArrayList<>();
        for (Row row : session.execute(history.bind(dataset))) {
            purges.add(new Purge(
                    row.getString("purge_id"),
                    dataset,
                    Scope.valueOf(row.getString("scope")),
                    row.getString("key_hash"),
                    row.getInstant("purged_at"),
                    row.getString("purged_by"),
                    row.getString("reason"),
                    row.getInt("records_removed")));
        }
        return purges;
    }

    private Purge record(Purge purge) {
        session.execute(logPurge.bind(
                purge.dataset(),
                purge.purgedAt(),
                purge.purgeId(),
                purge.scope().name(),
                purge.keyHash(),
                purge.purgedBy(),
                purge.reason(),
                purge.recordsRemoved()));
        return purge;
    }
}
