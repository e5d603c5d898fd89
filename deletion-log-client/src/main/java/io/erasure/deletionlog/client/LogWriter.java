package io.erasure.deletionlog.client;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.erasure.model.record.DeletionRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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

    /**
     * Rows of one partition written as one unlogged batch, at most: the node applies a batch of one partition as one
     * mutation (one commit-log entry, one memtable update), a fraction of the work of as many single writes; the
     * by-time and by-run rows of a poll fall in a few partitions. (A single-partition batch is not held to the node's
     * batch size thresholds, CASSANDRA-10876; the bound keeps each mutation small all the same.)
     */
    static final int MAX_ROWS_PER_BATCH = 50;

    /**
     * Payload bytes of one batch, at most: a record's columns may be up to a log message's size (a megabyte), and a
     * batch of such rows would be one mutation over the node's limit; a row larger than this goes alone.
     */
    static final int MAX_BATCH_BYTES = 256 * 1024;

    /** A record row to be written with others of its partition, and its payload's size. */
    private record PartitionRow(BoundStatement statement, int bytes) {}

    /** How many records were written and why the others were not. */
    public record Written(int written, int skippedPurged, int skippedExpired) {}

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
    public LogWriter(
            CqlSession session,
            DatasetKeys keys,
            JsonMapper json,
            Clock clock,
            Duration ttl,
            ConsistencyLevel consistency) {
        LogStatements statements = new LogStatements(session, consistency);
        this.session = session;
        this.keys = keys;
        this.json = json;
        this.clock = clock;
        this.ttlSeconds = LogSchema.requireTtl(ttl);
        String values = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";
        this.byKey = statements.prepare("INSERT INTO " + LogSchema.BY_KEY + " (" + LogSchema.RECORD_COLUMNS
                + ") VALUES (" + values + ") USING TTL ?");
        this.byTime = statements.prepare("INSERT INTO " + LogSchema.BY_TIME + " (" + LogSchema.RECORD_COLUMNS
                + ", hour) VALUES (" + values + ", ?) USING TTL ?");
        this.byRun = statements.prepare("INSERT INTO " + LogSchema.BY_RUN + " (" + LogSchema.RECORD_COLUMNS
                + ", origin_id, shard) VALUES (" + values + ", ?, ?) USING TTL ?");
        this.keyPurge = statements.prepare(
                "SELECT key_hash, purged_at FROM " + LogSchema.PURGED_KEYS + " WHERE dataset = ? AND key_hash IN ?");
        this.datasetPurge =
                statements.prepare("SELECT purged_at FROM " + LogSchema.PURGED_DATASETS + " WHERE dataset = ?");
    }

    /**
     * Writes {@code records} and returns once every row is acknowledged; a failure throws and the whole call may be
     * retried.
     */
    public Written write(List<DeletionRecord> records) {
        Map<String, List<DeletionRecord>> byDataset = new LinkedHashMap<>();
        for (DeletionRecord record : records) {
            byDataset.computeIfAbsent(record.dataset(), d -> new ArrayList<>()).add(record);
        }
        Instant now = clock.instant();
        List<CompletableFuture<AsyncResultSet>> writes = new ArrayList<>();
        Map<String, List<PartitionRow>> partitions = new LinkedHashMap<>();
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
                long remaining = ttlSeconds
                        - Math.max(0, Duration.between(record.deletedAt(), now).toSeconds());
                if (remaining <= 0) {
                    expired++;
                    continue;
                }
                write(record, keyHash, key, (int) remaining, writes, partitions);
                written++;
                if (writes.size() >= MAX_WRITES_IN_FLIGHT) {
                    await(writes);
                }
            }
        }
        for (List<PartitionRow> rows : partitions.values()) {
            List<BoundStatement> chunk = new ArrayList<>();
            int bytes = 0;
            for (PartitionRow row : rows) {
                if (!chunk.isEmpty() && (chunk.size() == MAX_ROWS_PER_BATCH || bytes + row.bytes() > MAX_BATCH_BYTES)) {
                    writeTogether(chunk, writes);
                    chunk = new ArrayList<>();
                    bytes = 0;
                }
                chunk.add(row.statement());
                bytes += row.bytes();
            }
            writeTogether(chunk, writes);
        }
        await(writes);
        return new Written(written, purged, expired);
    }

    /** Sends rows of one partition as one request: a single write, or an unlogged batch at the rows' consistency. */
    private void writeTogether(List<BoundStatement> rows, List<CompletableFuture<AsyncResultSet>> writes) {
        writes.add(async(
                rows.size() == 1
                        ? rows.get(0)
                        : BatchStatement.newInstance(BatchType.UNLOGGED)
                                .addAll(rows)
                                .setConsistencyLevel(rows.get(0).getConsistencyLevel())));
        if (writes.size() >= MAX_WRITES_IN_FLIGHT) {
            await(writes);
        }
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
    private Map<String, Instant> keyPurges(String dataset, Collection<String> hashes) {
        List<String> distinct = List.copyOf(new LinkedHashSet<>(hashes));
        List<CompletableFuture<AsyncResultSet>> reads = new ArrayList<>();
        for (int from = 0; from < distinct.size(); from += LogReader.KEYS_PER_QUERY) {
            reads.add(async(keyPurge.bind(
                    dataset, distinct.subList(from, Math.min(distinct.size(), from + LogReader.KEYS_PER_QUERY)))));
        }
        Map<String, Instant> purged = new HashMap<>();
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

    /**
     * Sends the record's by-key row (a partition of its own) and adds its by-time and by-run rows to
     * {@code partitions}, by partition, to be written in batches of one partition each.
     */
    private void write(
            DeletionRecord record,
            String keyHash,
            DatasetKeys.DataKey key,
            int ttl,
            List<CompletableFuture<AsyncResultSet>> writes,
            Map<String, List<PartitionRow>> partitions) {
        byte[] plain = json.writeValueAsString(new Payload(record.primaryKey(), record.columns()))
                .getBytes(StandardCharsets.UTF_8);
        ByteBuffer payload = ByteBuffer.wrap(PayloadCipher.encrypt(key.key(), plain, record.recordId()));
        Object[] common = {
            record.recordId(),
            record.dataset(),
            keyHash,
            record.deletedAt(),
            record.runId() == null ? null : record.runId().value(),
            record.requestId(),
            record.taskId(),
            record.batchId(),
            record.cutoff().micros(),
            key.version(),
            payload,
            record.retainedRef(),
            record.anonymised(),
            record.keptNewer()
        };
        writes.add(async(byKey.bind(append(common, ttl))));
        Instant hour = hourOf(record.deletedAt());
        int shard = shardOf(record.recordId());
        // '\n' is in no dataset or origin name: the pair names one partition
        partitions
                .computeIfAbsent("time\n" + record.dataset() + "\n" + hour, p -> new ArrayList<>())
                .add(new PartitionRow(byTime.bind(append(common, hour, ttl)), payload.remaining()));
        partitions
                .computeIfAbsent("run\n" + record.originId() + "\n" + shard, p -> new ArrayList<>())
                .add(new PartitionRow(byRun.bind(append(common, record.originId(), shard, ttl)), payload.remaining()));
    }

    private CompletableFuture<AsyncResultSet> async(Statement<?> statement) {
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
