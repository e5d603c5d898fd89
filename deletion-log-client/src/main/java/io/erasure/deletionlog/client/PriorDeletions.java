package io.erasure.deletionlog.client;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.regex.Pattern;

/**
 * "Was this key deleted before?" for a batch of keys: one point read of {@code records_by_key} per key,
 * concurrent and bounded, reading only the clear metadata columns (deletion time, run or request id).
 * No data key is needed, so a caller without the master key (validation) can ask.
 *
 * <p>Only deletions of rows count: a record marked {@code keptNewer} never removed its row, and an anonymisation
 * (a record with {@code anonymised} set) cleared some columns
 * and kept the row on purpose, so that row being live later is no resurrection.
 *
 * <p>Purges are honoured: a key purge removes the key's rows, and records of a purged dataset deleted
 * at or before the purge are ignored (as {@link LogWriter} ignores their re-deliveries). The log keeps
 * records for its TTL (30 days by default), so a deletion older than that is no longer known here.
 *
 * <p>Thread-safe. The statements are prepared on first use, so a service may start before
 * deletion-log-service has created the tables.
 */
public final class PriorDeletions {

    /** The earliest known deletion of one key, and how many deletion records the log holds for it. */
    public record PriorDeletion(String keyHash, Instant firstDeletedAt, String firstDeletedBy, int recordCount) {
        public PriorDeletion {
            Require.nonBlank("keyHash", keyHash);
            Require.nonNull("firstDeletedAt", firstDeletedAt);
            Require.nonBlank("firstDeletedBy", firstDeletedBy);
            Require.that(recordCount >= 1, "recordCount must be >= 1, got " + recordCount);
        }
    }

    public static final int DEFAULT_CONCURRENCY = 64;
    private static final Pattern KEYSPACE = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,47}");

    private final CqlSession session;
    private final String byKeyTable;
    private final String purgedDatasetsTable;
    private final int concurrency;
    private volatile Statements statements;

    private record Statements(PreparedStatement byKey, PreparedStatement datasetPurge) {}

    /** Reads the tables of {@link LogSchema#KEYSPACE}. */
    public PriorDeletions(CqlSession session) {
        this(session, LogSchema.KEYSPACE, DEFAULT_CONCURRENCY);
    }

    /**
     * @param keyspace    the keyspace that holds the log's tables (normally {@link LogSchema#KEYSPACE})
     * @param concurrency point reads in flight at once
     */
    public PriorDeletions(CqlSession session, String keyspace, int concurrency) {
        this.session = Require.nonNull("session", session);
        if (keyspace == null || !KEYSPACE.matcher(keyspace).matches()) {
            throw new IllegalArgumentException(
                    "deletion log keyspace must be a Cassandra keyspace name (a letter, then up to"
                            + " 47 letters, digits or '_'), e.g. " + LogSchema.KEYSPACE + "; got "
                            + Require.echo(keyspace));
        }
        Require.that(concurrency >= 1, "concurrency must be >= 1, got " + concurrency);
        String quoted = CqlIdentifier.fromInternal(keyspace).asCql(true);
        this.byKeyTable = LogSchema.inKeyspace(quoted, LogSchema.BY_KEY);
        this.purgedDatasetsTable = LogSchema.inKeyspace(quoted, LogSchema.PURGED_DATASETS);
        this.concurrency = concurrency;
    }

    /**
     * The keys of {@code dataset} among {@code keys} that the log records as deleted, by {@link KeyHash}.
     * A key that is not in the answer has no (unpurged, unexpired) deletion record. A read failure throws
     * the driver's exception: a caller must not mistake "could not look" for "never deleted".
     */
    public Map<String, PriorDeletion> find(String dataset, Collection<? extends Map<String, ?>> keys) {
        Names.datasetName("dataset", dataset);
        Require.nonNull("keys", keys);
        if (keys.isEmpty()) {
            return Map.of();
        }
        Statements prepared = prepared();
        Row purge = session.execute(prepared.datasetPurge().bind(dataset)).one();
        Instant datasetPurgedAt = purge == null ? null : purge.getInstant("purged_at");

        Set<String> hashes = new LinkedHashSet<>();
        for (Map<String, ?> key : keys) {
            hashes.add(KeyHash.of(dataset, key));
        }
        Map<String, PriorDeletion> found = new ConcurrentHashMap<>();
        Semaphore inFlight = new Semaphore(concurrency);
        CompletableFuture<?>[] reads = new CompletableFuture<?>[hashes.size()];
        int i = 0;
        for (String hash : hashes) {
            inFlight.acquireUninterruptibly();
            Accumulator history = new Accumulator(hash, datasetPurgedAt);
            reads[i++] = drain(session.executeAsync(prepared.byKey().bind(dataset, hash)), history)
                    .toCompletableFuture()
                    .whenComplete((done, error) -> {
                        inFlight.release();
                        if (error == null) {
                            history.result().ifPresent(p -> found.put(hash, p));
                        }
                    });
        }
        try {
            CompletableFuture.allOf(reads).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
        Map<String, PriorDeletion> ordered = new LinkedHashMap<>();
        hashes.stream().filter(found::containsKey).forEach(hash -> ordered.put(hash, found.get(hash)));
        return ordered;
    }

    private static CompletionStage<Void> drain(CompletionStage<AsyncResultSet> page, Accumulator history) {
        return page.thenCompose(rows -> {
            for (Row row : rows.currentPage()) {
                history.add(row);
            }
            return rows.hasMorePages()
                    ? drain(rows.fetchNextPage(), history)
                    : CompletableFuture.<Void>completedFuture(null);
        });
    }

    private Statements prepared() {
        Statements current = statements;
        if (current == null) {
            synchronized (this) {
                current = statements;
                if (current == null) {
                    LogStatements log = new LogStatements(session, LogStatements.DEFAULT);
                    current = new Statements(
                            log.prepare("SELECT record_id, deleted_at, run_id, request_id, anonymised, kept_newer FROM "
                                    + byKeyTable + " WHERE dataset = ? AND key_hash = ?"),
                            log.prepare("SELECT purged_at FROM " + purgedDatasetsTable + " WHERE dataset = ?"));
                    statements = current;
                }
            }
        }
        return current;
    }

    /** One key's rows, folded as they arrive (one page at a time, from one thread at a time). */
    private static final class Accumulator {
        private final String hash;
        private final Instant datasetPurgedAt;
        private Instant first;
        private String firstRecordId;
        private String firstBy;
        private int count;

        Accumulator(String hash, Instant datasetPurgedAt) {
            this.hash = hash;
            this.datasetPurgedAt = datasetPurgedAt;
        }

        void add(Row row) {
            Instant deletedAt = row.getInstant("deleted_at");
            if (deletedAt == null || datasetPurgedAt != null && !deletedAt.isAfter(datasetPurgedAt)) {
                return; // crypto-shredded with its dataset: legally forgotten
            }
            if (LogReader.anonymised(row)) {
                return; // the row was kept, only columns were cleared
            }
            if (LogReader.keptNewer(row)) {
                return; // a write after the cut-off kept the row alive: it was never gone
            }
            String recordId = row.getString("record_id");
            count++;
            if (first == null
                    || deletedAt.isBefore(first)
                    || deletedAt.equals(first) && recordId.compareTo(firstRecordId) < 0) {
                first = deletedAt;
                firstRecordId = recordId;
                firstBy = row.getString("run_id") != null ? row.getString("run_id") : row.getString("request_id");
            }
        }

        Optional<PriorDeletion> result() {
            return count == 0 ? Optional.empty() : Optional.of(new PriorDeletion(hash, first, firstBy, count));
        }
    }
}
