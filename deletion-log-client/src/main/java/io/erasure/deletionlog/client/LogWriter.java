package io.erasure.deletionlog.client;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.record.DeletionRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes deletion records into the three record tables. Idempotent: a record's rows have primary keys
 * derived from its id (and deletion time), so writing it again overwrites the same rows.
 *
 * <p>Each row expires {@code ttl} after the record's deletion, not after its ingestion; a record
 * already older than that is not written. A record of a key or dataset purged at or after its deletion
 * (a late re-delivery from the topic) is not written either: a purge must not be undone by the topic.
 */
public final class LogWriter {

    /**
     * Row writes in flight at once (three per record): a poll's 500 records all at once are 1,500 requests, more than
     * the driver's 1,024 per connection, and a slow node then fails the whole batch with "No connection was available".
     */
    static final int MAX_WRITES_IN_FLIGHT = 600;

    /** How many records were written and why the others were not. */
    public record Written(int written, int skippedPurged, int skippedExpired) {
    }

    private final CqlSession session;
    private final DatasetKeys keys;
    private final JsonMapper json;
    private final Clock clock;
    private final long ttlSeconds;
    private final PreparedStatement byKey;
    private final PreparedStatement byTime;
    private final PreparedStatement byRun;
    private final PreparedStatement keyPurge;
    private final PreparedStatement datasetPurge;

    public LogWriter(CqlSession session, DatasetKeys keys, JsonMapper json, Clock clock, Duration ttl) {
        this(session, keys, json, clock, ttl, LogStatements.DEFAULT);
    }

    /** {@code consistency}: of the record writes and the purge checks before them. */
    public LogWriter(CqlSession session, DatasetKeys keys, JsonMapper json, Clock clock, Duration ttl,
                     ConsistencyLevel consistency) {
        LogStatements statements = new LogStatements(session, consistency);
        this.session = session;
        this.keys = keys;
        this.json = json;
        this.clock = clock;
        this.ttlSeconds = LogSchema.requireTtl(ttl);
        String values = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";
        this.byKey = statements.prepare("INSERT INTO " + LogSchema.BY_KEY + " (" + LogSchema.RECORD_COLUMNS + ") VALUES ("
                + values + ") USING TTL ?");
        this.byTime = statements.prepare("INSERT INTO " + LogSchema.BY_TIME + " (" + LogSchema.RECORD_COLUMNS + ", hour) VALUES ("
                + values + ", ?) USING TTL ?");
        this.byRun = statements.prepare("INSERT INTO " + LogSchema.BY_RUN + " (" + LogSchema.RECORD_COLUMNS
                + ", origin_id, shard) VALUES (" + values + ", ?, ?) USING TTL ?");
        this.keyPurge = statements.prepare("SELECT key_hash, purged_at FROM " + LogSchema.PURGED_KEYS
                + " WHERE dataset = ? AND key_hash IN ?");
        this.datasetPurge = statements.prepare("SELECT purged_at FROM " + LogSchema.PURGED_DATASETS + " WHERE dataset = ?");
    }

    /** Writes {@code records} and returns once every row is acknowledged; a failure throws and the whole call may be retried. */
    public Written write(List<DeletionRecord> records) {
        Map<String, List<DeletionRecord>> byDataset = new LinkedHashMap<>();
        for (DeletionRecord record : records) {
            byDataset.computeIfAbsent(record.dataset(), d -> new ArrayList<>()).add(record);
        }
        Instant now = clock.instant();
        List<CompletableFuture<AsyncResultSet>> writes = new ArrayList<>();
        int written = 0;
        int purged = 0;
        int expired = 0;
        for (Map.Entry<String, List<DeletionRecord>> dataset : byDataset.entrySet()) {
            CompletableFuture<AsyncResultSet> datasetPurgeRead = async(datasetPurge.bind(dataset.getKey()));
            Map<String, String> hashes = new LinkedHashMap<>();
            for (DeletionRecord record : dataset.getValue()) {
                hashes.computeIfAbsent(record.recordId(), id -> KeyHash.of(record.dataset(), record.primaryKey()));
            }
            Map<String, Instant> keyPurges = keyPurges(dataset.getKey(), hashes.values());
            Instant datasetPurgedAt = purgedAt(datasetPurgeRead.join().one());
            DatasetKeys.DataKey key = keys.current(dataset.getKey());
            for (DeletionRecord record : dataset.getValue()) {
                String keyHash = hashes.get(record.recordId());
                if (coveredBy(datasetPurgedAt, record) || coveredBy(keyPurges.get(keyHash), record)) {
                    purged++;
                    continue;
                }
                long remaining = ttlSeconds - Math.max(0, Duration.between(record.deletedAt(), now).toSeconds());
                if (remaining <= 0) {
                    expired++;
                    continue;
                }
                write(record, keyHash, key, (int) remaining, writes);
                written++;
                if (writes.size() >= MAX_WRITES_IN_FLIGHT) {
                    await(writes);
                }
            }
        }
        await(writes);
        return new Written(written, purged, expired);
    }

    private static void await(List<CompletableFuture<AsyncResultSet>> writes) {
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
        writes.clear();
    }

    /**
     * When each of {@code hashes} was purged, for those that were: multi-key reads of at most
     * {@value LogReader#KEYS_PER_QUERY} keys (one partition each), all in flight at once, so a batch of records costs a
     * few round trips instead of one per record.
     */
    private Map<String, Instant> keyPurges(String dataset, java.util.Collection<String> hashes) {
        List<String> distinct = List.copyOf(new java.util.LinkedHashSet<>(hashes));
        List<CompletableFuture<AsyncResultSet>> reads = new ArrayList<>();
        for (int from = 0; from < distinct.size(); from += LogReader.KEYS_PER_QUERY) {
            reads.add(async(keyPurge.bind(dataset, distinct.subList(from, Math.min(distinct.size(),
                    from + LogReader.KEYS_PER_QUERY)))));
        }
        Map<String, Instant> purged = new java.util.HashMap<>();
        for (CompletableFuture<AsyncResultSet> read : reads) {
            collect(read.join(), purged);
        }
        return purged;
    }

    private static void collect(AsyncResultSet page, Map<String, Instant> purged) {
        for (Row row : page.currentPage()) {
            purged.put(row.getString("key_hash"), row.getInstant("purged_at"));
        }
        if (page.hasMorePages()) {
            collect(page.fetchNextPage().toCompletableFuture().join(), purged);
        }
    }

    private void write(DeletionRecord record, String keyHash, DatasetKeys.DataKey key, int ttl,
                       List<CompletableFuture<AsyncResultSet>> writes) {
        byte[] plain = json.writeValueAsString(new Payload(record.primaryKey(), record.columns())).getBytes(StandardCharsets.UTF_8);
        ByteBuffer payload = ByteBuffer.wrap(PayloadCipher.encrypt(key.key(), plain, record.recordId()));
        Object[] common = {record.recordId(), record.dataset(), keyHash, record.deletedAt(),
                record.runId() == null ? null : record.runId().value(), record.requestId(), record.taskId(), record.batchId(),
                record.cutoff().micros(), key.version(), payload, record.retainedRef(), record.anonymised(),
                record.keptNewer()};
        writes.add(async(byKey.bind(append(common, ttl))));
        writes.add(async(byTime.bind(append(common, hourOf(record.deletedAt()), ttl))));
        writes.add(async(byRun.bind(append(common, record.originId(), shardOf(record.recordId()), ttl))));
    }

    private CompletableFuture<AsyncResultSet> async(com.datastax.oss.driver.api.core.cql.BoundStatement statement) {
        CompletionStage<AsyncResultSet> stage = session.executeAsync(statement);
        return stage.toCompletableFuture();
    }

    static Instant hourOf(Instant instant) {
        return instant.truncatedTo(ChronoUnit.HOURS);
    }

    static int shardOf(String recordId) {
        return Character.digit(recordId.charAt(0), 16) % LogSchema.RUN_SHARDS;
    }

    private static boolean coveredBy(Instant purgedAt, DeletionRecord record) {
        return purgedAt != null && !record.deletedAt().isAfter(purgedAt);
    }

    private static Instant purgedAt(Row row) {
        return row == null ? null : row.getInstant("purged_at");
    }

    private static Object[] append(Object[] head, Object... tail) {
        Object[] all = new Object[head.length + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
