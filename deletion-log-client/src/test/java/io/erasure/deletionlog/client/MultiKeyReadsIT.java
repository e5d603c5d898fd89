package io.erasure.deletionlog.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DriverExecutionProfile;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.session.Request;
import com.datastax.oss.driver.api.core.tracker.RequestTracker;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.awaitility.core.ThrowingRunnable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keys read in multi-key statements answer what one read per key answers, in a fraction of the statements; headers
 * (no payload) page and sort as the records they stand for. On the real log tables.
 */
class MultiKeyReadsIT {

    private static final String MASTER_KEY = "bXVsdGkta2V5LXJlYWRzLXRlc3QtbWFzdGVyLWtleSE=";
    private static final Instant FIRST =
            Instant.now().truncatedTo(ChronoUnit.MILLIS).minus(Duration.ofHours(3));
    private static final Instant SECOND = FIRST.plus(Duration.ofMinutes(90));
    private static final AtomicInteger KEY_STATEMENTS = new AtomicInteger();
    /** Requests that write record rows, by table: "<table>" for a single row, "<table> batch" for a batch. */
    private static final Map<String, AtomicInteger> RECORD_WRITES = new ConcurrentHashMap<>();

    private static CqlSession session;
    private static DeletionLog log;

    @BeforeAll
    static void logTables() {
        CassandraEngine cassandra = LocalEngines.cassandra();
        session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                .withLocalDatacenter(cassandra.localDatacenter())
                .addRequestTracker(new KeyStatements())
                .build();
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + LogSchema.KEYSPACE
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        LogSchema.create(session, Duration.ofDays(30));
        log = DeletionLog.open(
                session, MASTER_KEY, Duration.ofDays(30), JsonMapper.builder().build(), Clock.systemUTC());
    }

    @AfterAll
    static void close() {
        if (session != null) {
            session.close();
        }
    }

    @Test
    void keysReadTogetherAnswerAsEachKeyReadAloneInAFractionOfTheStatements() {
        String dataset = "multi-" + System.nanoTime() % 1_000_000;
        String first = "run-a-" + System.nanoTime() % 1_000_000;
        write(dataset, first, LongStream.rangeClosed(1, 250), FIRST, false);
        write(dataset, "run-b-" + System.nanoTime() % 1_000_000, LongStream.rangeClosed(1, 40), SECOND, false);
        write(dataset, "request-" + System.nanoTime() % 1_000_000, LongStream.rangeClosed(41, 50), SECOND, true);
        log.purges().purgeKey(dataset, Map.of("id", 7L), "operator", "legal request");
        // 251..260 were never deleted
        List<Map<String, Object>> keys = LongStream.rangeClosed(1, 260)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();

        KEY_STATEMENTS.set(0);
        List<LogReader.KeyHistory> together = log.reader().byKeys(dataset, keys, true);
        awaitTracked(() -> assertThat(KEY_STATEMENTS.get())
                .as("multi-key statements of at most " + LogReader.KEYS_PER_QUERY + " keys")
                .isEqualTo(2 * 3));
        KEY_STATEMENTS.set(0);
        List<LogReader.KeyHistory> alone =
                keys.stream().map(key -> log.reader().byKey(dataset, key, true)).toList();

        awaitTracked(() -> assertThat(KEY_STATEMENTS.get())
                .as("one read per key, and one of its purge marker")
                .isEqualTo(2 * keys.size()));
        assertThat(together).hasSize(keys.size());
        assertThat(together).usingRecursiveFieldByFieldElementComparator().containsExactlyElementsOf(alone);
        assertThat(together.get(0).records())
                .extracting(LoggedRecord::deletedAt)
                .as("newest first")
                .containsExactly(SECOND, FIRST);
        assertThat(together.get(6).purged()).as("key 7 was purged").isTrue();
        assertThat(together.get(6).records()).isEmpty();
        assertThat(together.get(259).records()).isEmpty();
        assertThat(together.get(44).records().get(0).anonymised()).isTrue();
        assertThat(together.get(0).records().get(0).columns()).isNotEmpty();
    }

    @Test
    void headersByKeyAreTheRecordsWithoutTheirPayloadsNewestFirst() {
        String dataset = "headers-" + System.nanoTime() % 1_000_000;
        write(dataset, "run-a-" + System.nanoTime() % 1_000_000, LongStream.rangeClosed(1, 120), FIRST, false);
        write(dataset, "request-" + System.nanoTime() % 1_000_000, LongStream.rangeClosed(1, 30), SECOND, true);
        List<Map<String, Object>> keys = LongStream.rangeClosed(1, 125)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
        List<String> hashes = keys.stream().map(key -> KeyHash.of(dataset, key)).toList();

        Map<String, List<RecordHeader>> headers = log.reader().headersByKey(dataset, hashes);

        List<LogReader.KeyHistory> histories = log.reader().byKeys(dataset, keys, false);
        assertThat(headers).as("keys without records are left out").hasSize(120);
        for (LogReader.KeyHistory history : histories) {
            List<RecordHeader> expected =
                    history.records().stream().map(MultiKeyReadsIT::header).toList();
            assertThat(headers.getOrDefault(KeyHash.of(dataset, history.key()), List.of()))
                    .as("key %s", history.key())
                    .isEqualTo(expected);
        }
        assertThat(headers.get(hashes.get(0)).get(0).anonymised()).isTrue();

        log.purges().purgeDataset(dataset, "operator", "legal request");

        assertThat(log.reader().headersByKey(dataset, hashes).values())
                .allSatisfy(list -> assertThat(list).allMatch(RecordHeader::purged));
        assertThat(log.reader().byKeys(dataset, keys, false))
                .allSatisfy(history -> assertThat(history.records()).allMatch(LoggedRecord::purged));
    }

    @Test
    void windowAndRunHeadersPageAsTheirRecords() {
        String dataset = "paged-" + System.nanoTime() % 1_000_000;
        String run = "run-p-" + System.nanoTime() % 1_000_000;
        write(dataset, run, LongStream.rangeClosed(1, 130), FIRST, false);
        write(dataset, run + "-later", LongStream.rangeClosed(1, 20), SECOND, false);
        Instant from = FIRST.minusSeconds(1);
        Instant to = SECOND.plusSeconds(1);

        List<RecordHeader> windowHeaders = all(cursor -> {
            HeaderPage page = log.reader().windowHeaders(dataset, from, to, 37, cursor);
            return new Page<>(page.headers(), page.nextCursor());
        });
        List<RecordHeader> windowRecords = all(cursor -> {
            LogPage page = log.reader().window(dataset, from, to, 37, cursor, false);
            return new Page<>(
                    page.records().stream().map(MultiKeyReadsIT::header).toList(), page.nextCursor());
        });
        List<RecordHeader> runHeaders = all(cursor -> {
            HeaderPage page = log.reader().runHeaders(run, 37, cursor);
            return new Page<>(page.headers(), page.nextCursor());
        });
        List<RecordHeader> runRecords = all(cursor -> {
            LogPage page = log.reader().run(run, 37, cursor, false);
            return new Page<>(
                    page.records().stream().map(MultiKeyReadsIT::header).toList(), page.nextCursor());
        });

        assertThat(windowHeaders).hasSize(150).isEqualTo(windowRecords);
        assertThat(windowHeaders.subList(130, 150))
                .allMatch(header -> header.deletedAt().equals(SECOND));
        assertThat(runHeaders).hasSize(130).isEqualTo(runRecords);
    }

    @Test
    void aPollsByTimeAndByRunRowsAreWrittenInBatchesOfOnePartitionAndReadBackWhole() {
        String dataset = "batched-" + System.nanoTime() % 1_000_000;
        String run = "run-b-" + System.nanoTime() % 1_000_000;
        int records = 260;
        Map<Integer, Integer> perShard = new TreeMap<>();
        LongStream.rangeClosed(1, records)
                .forEach(id -> perShard.merge(
                        LogWriter.shardOf(DeletionRecord.recordIdFor(run, dataset, Map.of("id", id))),
                        1,
                        Integer::sum));
        int runBatches = perShard.values().stream()
                .mapToInt(n -> (n + LogWriter.MAX_ROWS_PER_BATCH - 1) / LogWriter.MAX_ROWS_PER_BATCH)
                .sum();

        RECORD_WRITES.clear();
        write(dataset, run, LongStream.rangeClosed(1, records), FIRST, false);

        awaitTracked(() -> assertThat(counts(RECORD_WRITES))
                .as("one request per by-key row; by-time rows in one partition, by-run rows in"
                        + " one per shard, at most " + LogWriter.MAX_ROWS_PER_BATCH + " a batch")
                .isEqualTo(Map.of(
                        LogSchema.BY_KEY,
                        records,
                        LogSchema.BY_TIME + " batch",
                        (records + LogWriter.MAX_ROWS_PER_BATCH - 1) / LogWriter.MAX_ROWS_PER_BATCH,
                        LogSchema.BY_RUN + " batch",
                        runBatches)));
        List<LoggedRecord> byRun = all(cursor -> {
            LogPage page = log.reader().run(run, 37, cursor, true);
            return new Page<>(page.records(), page.nextCursor());
        });
        List<LoggedRecord> byTime = all(cursor -> {
            LogPage page = log.reader().window(dataset, FIRST.minusSeconds(1), FIRST.plusSeconds(1), 37, cursor, true);
            return new Page<>(page.records(), page.nextCursor());
        });
        assertThat(byRun).hasSize(records);
        assertThat(byTime).hasSize(records);
        assertThat(byRun).allSatisfy(record -> assertThat(record.columns()).hasSize(2));
        assertThat(byRun.stream()
                        .map(r -> ((Number) r.primaryKey().get("id")).longValue())
                        .distinct()
                        .count())
                .isEqualTo(records);
        assertThat(log.reader().byKey(dataset, Map.of("id", 260L), true).records())
                .singleElement()
                .satisfies(record -> assertThat(record.columns()).hasSize(2));
    }

    @Test
    void largeRecordsOfOnePartitionAreBatchedByTheirBytesAndReadBackWhole() {
        String dataset = "large-" + System.nanoTime() % 1_000_000;
        String run = "run-l-" + System.nanoTime() % 1_000_000;
        String large = "x".repeat(120 * 1024); // two fit in a batch's bytes, three do not
        List<DeletionRecord> records = new ArrayList<>();
        Map<Integer, Integer> perShard = new TreeMap<>();
        LongStream.rangeClosed(1, 6).forEach(id -> {
            Map<String, Object> key = Map.of("id", id);
            String recordId = DeletionRecord.recordIdFor(run, dataset, key);
            perShard.merge(LogWriter.shardOf(recordId), 1, Integer::sum);
            records.add(new DeletionRecord(
                    recordId,
                    dataset,
                    key,
                    List.of(ColumnValue.of("bio", large)),
                    CutoffTimestamp.fromInstant(FIRST.minusSeconds(30)),
                    RunId.of(run),
                    null,
                    "task-1",
                    "batch-1",
                    FIRST,
                    null,
                    false));
        });
        int runRequests = perShard.values().stream().mapToInt(n -> (n + 1) / 2).sum();

        RECORD_WRITES.clear();
        log.writer().write(records);

        awaitTracked(() -> {
            Map<String, Integer> counts = counts(RECORD_WRITES);
            assertThat(counts.get(LogSchema.BY_TIME + " batch"))
                    .as("by-time rows, two a batch")
                    .isEqualTo(3);
            assertThat(counts.getOrDefault(LogSchema.BY_RUN + " batch", 0) + counts.getOrDefault(LogSchema.BY_RUN, 0))
                    .as("by-run requests, at most two rows each")
                    .isEqualTo(runRequests);
        });
        LogPage page = log.reader().run(run, 10, null, true);
        assertThat(page.records())
                .hasSize(6)
                .allSatisfy(record -> assertThat(record.columns())
                        .singleElement()
                        .satisfies(c -> assertThat(c.value()).isEqualTo(large)));
    }

    private static Map<String, Integer> counts(Map<String, AtomicInteger> counters) {
        Map<String, Integer> counts = new TreeMap<>();
        counters.forEach((name, count) -> counts.put(name, count.get()));
        return counts;
    }

    @Test
    void aKeySetLargerThanAPageIsRefusedWithTheFix() {
        List<Map<String, Object>> keys = LongStream.rangeClosed(1, LogReader.MAX_PAGE + 1)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();

        assertThatThrownBy(() -> log.reader().byKeys("too-many", keys, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most " + LogReader.MAX_PAGE)
                .hasMessageContaining("in parts");
    }

    @Test
    void aBatchOfRecordsChecksItsKeysPurgesInAFewStatementsAndSkipsExactlyThePurgedOnes() {
        String dataset = "purged-" + System.nanoTime() % 1_000_000;
        String run = "run-p-" + System.nanoTime() % 1_000_000;
        write(dataset, run, LongStream.rangeClosed(1, 250), FIRST, false);
        for (long id : new long[] {7, 150, 249}) {
            log.purges().purgeKey(dataset, Map.of("id", id), "operator", "legal request");
        }
        List<DeletionRecord> redelivered = new ArrayList<>();
        LongStream.rangeClosed(1, 250).forEach(id -> {
            Map<String, Object> key = Map.of("id", id);
            redelivered.add(new DeletionRecord(
                    DeletionRecord.recordIdFor(run, dataset, key),
                    dataset,
                    key,
                    List.of(ColumnValue.of("id", id)),
                    CutoffTimestamp.fromInstant(FIRST.minusSeconds(30)),
                    RunId.of(run),
                    null,
                    "task-1",
                    "batch-1",
                    FIRST,
                    null,
                    false));
        });

        KEY_STATEMENTS.set(0);
        LogWriter.Written written = log.writer().write(redelivered); // a late re-delivery from the topic

        assertThat(written.skippedPurged())
                .as("the purged keys' records are not written back")
                .isEqualTo(3);
        assertThat(written.written()).isEqualTo(247);
        awaitTracked(() -> assertThat(KEY_STATEMENTS.get())
                .as("purge markers read " + LogReader.KEYS_PER_QUERY + " keys a statement, not one per record")
                .isEqualTo(3));
        assertThat(log.reader().byKey(dataset, Map.of("id", 150L), true).purged())
                .as("still purged")
                .isTrue();
    }

    /**
     * Awaits tracked counts that pass {@code assertion} and keep passing: the driver may report a request just after
     * its result is handed over, so a count is awaited rather than read at once; the counts only ever grow, so one
     * request too many fails the assertion for good, and the quiet second that follows shows there is none.
     */
    private static void awaitTracked(ThrowingRunnable assertion) {
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(30)).untilAsserted(assertion);
    }

    /** The record table a statement writes, or "" for another. */
    private static String table(BatchableStatement<?> statement) {
        String query = statement instanceof BoundStatement bound
                ? bound.getPreparedStatement().getQuery()
                : "";
        return Stream.of(LogSchema.BY_KEY, LogSchema.BY_TIME, LogSchema.BY_RUN)
                .filter(table -> query.startsWith("INSERT INTO " + table + " "))
                .findFirst()
                .orElse("");
    }

    private record Page<T>(List<T> items, String next) {}

    private static <T> List<T> all(Function<String, Page<T>> read) {
        List<T> all = new ArrayList<>();
        String cursor = null;
        do {
            Page<T> page = read.apply(cursor);
            assertThat(page.items()).hasSizeLessThanOrEqualTo(37);
            all.addAll(page.items());
            cursor = page.next();
        } while (cursor != null);
        return all;
    }

    private static RecordHeader header(LoggedRecord record) {
        return new RecordHeader(
                record.recordId(),
                record.dataset(),
                record.keyHash(),
                record.deletedAt(),
                record.purged(),
                record.anonymised());
    }

    /**
     * Deletion (or, {@code anonymised}, anonymisation) records of {@code ids} by {@code origin}, deleted at {@code at}.
     */
    private static void write(String dataset, String origin, LongStream ids, Instant at, boolean anonymised) {
        List<DeletionRecord> records = new ArrayList<>();
        ids.forEach(id -> {
            Map<String, Object> key = Map.of("id", id);
            List<ColumnValue> columns = anonymised
                    ? List.of(ColumnValue.of("email", id + "@example.com"))
                    : List.of(ColumnValue.of("id", id), ColumnValue.of("name", "n-" + id));
            boolean run = origin.startsWith("run");
            records.add(new DeletionRecord(
                    DeletionRecord.recordIdFor(origin, dataset, key),
                    dataset,
                    key,
                    columns,
                    CutoffTimestamp.fromInstant(at.minusSeconds(30)),
                    run ? RunId.of(origin) : null,
                    run ? null : origin,
                    "task-1",
                    "batch-1",
                    at,
                    null,
                    anonymised));
        });
        log.writer().write(records);
    }

    /** Counts the statements on the by-key and purge-marker tables. */
    private static final class KeyStatements implements RequestTracker {
        @Override
        public void onSuccess(
                Request request,
                long latencyNanos,
                DriverExecutionProfile profile,
                Node node,
                String requestLogPrefix) {
            if (request instanceof BatchStatement batch) {
                RECORD_WRITES
                        .computeIfAbsent(table(batch.iterator().next()) + " batch", t -> new AtomicInteger())
                        .incrementAndGet();
            }
            if (request instanceof BoundStatement bound
                    && bound.getPreparedStatement().getQuery().startsWith("INSERT")
                    && !table(bound).isEmpty()) {
                RECORD_WRITES
                        .computeIfAbsent(table(bound), t -> new AtomicInteger())
                        .incrementAndGet();
            }
            if (request instanceof BoundStatement bound) {
                String query = bound.getPreparedStatement().getQuery();
                if (query.startsWith("SELECT")
                        && (query.contains(LogSchema.BY_KEY) || query.contains(LogSchema.PURGED_KEYS))) {
                    KEY_STATEMENTS.incrementAndGet();
                }
            }
        }

        @Override
        public void close() {}
    }
}
