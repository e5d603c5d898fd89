package io.erasure.store.cassandra.bulk;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.cassandra.CassandraStoreAdapter;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bulk path against the real node: SSTables written in a child JVM, imported over JMX, read back,
 * with the online restore's rules (cut-off + 1 µs, remaining TTL, newer data kept, expired left out).
 */
class BulkRestorerIT {

    private static final String KEYSPACE = "bulk_restores";
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final long BEFORE = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(BEFORE + 1_000_000);

    private static CqlSession direct;
    private static CassandraStoreAdapter adapter;
    private static BulkRestorer bulk;

    @BeforeAll
    static void open() {
        direct = BulkFixtures.directSession();
        BulkFixtures.createKeyspace(direct, KEYSPACE);
        adapter = BulkFixtures.openAdapter();
        bulk = BulkFixtures.bulkRestorer(adapter, Clock.systemUTC());
    }

    @AfterAll
    static void close() {
        adapter.close();
        direct.close();
    }

    @Test
    void deletedRowsComeBackIdenticalAtTheCutoffPlusOneMicrosecondWithTheirRemainingTtl() {
        DatasetSpec spec = profiles();
        List<Long> ids = LongStream.rangeClosed(1, 40).boxed().toList();
        for (long id : ids) {
            write(spec, id, "name-" + id, id % 2 == 0 ? null : "e" + id + "@example.com", id % 4 == 1 ? 0 : 3600);
        }
        List<LiveRow> before = adapter.readRows(spec, keys(ids));
        List<DeletionRecord> records = delete(spec, before);

        RestoreOutcome outcome = bulk.restore(spec, records);

        assertThat(outcome.count(Status.RESTORED)).isEqualTo(ids.size());
        List<LiveRow> after = adapter.readRows(spec, keys(ids));
        assertThat(after).hasSize(before.size());
        for (int i = 0; i < before.size(); i++) {
            assertThat(values(after.get(i))).isEqualTo(values(before.get(i)));
            for (ColumnValue column : after.get(i).columns()) {
                if (column.writeTimeMicros() != null) {
                    assertThat(column.writeTimeMicros()).isEqualTo(CUTOFF.restoreWriteTimeMicros());
                }
            }
        }
        Row ttlRow = row(spec, 2);
        assertThat(ttlRow.getInt("ttl")).isBetween(3500, 3600);
        assertThat(ttlRow.getLong("wt")).isEqualTo(CUTOFF.restoreWriteTimeMicros());
        assertThat(row(spec, 1).isNull("ttl")).as("a column without TTL comes back without one").isTrue();
    }

    @Test
    void aRowReinsertedAfterTheDeleteIsKeptAndTheOthersAreRestored() {
        DatasetSpec spec = profiles();
        List<Long> ids = List.of(1L, 2L, 3L);
        ids.forEach(id -> write(spec, id, "old-" + id, "old@example.com", 0));
        List<DeletionRecord> records = delete(spec, adapter.readRows(spec, keys(ids)));
        direct.execute("INSERT INTO " + spec.quotedTable() + " (id, name) VALUES (2, 'new-2')");

        RestoreOutcome outcome = bulk.restore(spec, records);

        assertThat(outcome.records()).extracting(RecordOutcome::status)
                .containsExactly(Status.RESTORED, Status.NEWER_DATA_KEPT, Status.RESTORED);
        assertThat(row(spec, 2).getString("name")).isEqualTo("new-2");
        assertThat(row(spec, 2).getString("email")).as("rows are never merged").isNull();
        assertThat(row(spec, 3).getString("name")).isEqualTo("old-3");
    }

    @Test
    void expiredRecordsAreReportedAndNotWritten() {
        DatasetSpec spec = profiles();
        write(spec, 1, "short-lived", "s@example.com", 60);
        write(spec, 2, "long-lived", "l@example.com", 86_400);
        List<DeletionRecord> records = delete(spec, adapter.readRows(spec, keys(List.of(1L, 2L))));

        BulkRestorer later = BulkFixtures.bulkRestorer(adapter, Clock.fixed(Instant.now().plus(Duration.ofMinutes(2)), ZoneOffset.UTC));
        RestoreOutcome outcome = later.restore(spec, records);

        assertThat(outcome.records()).extracting(RecordOutcome::status).containsExactly(Status.EXPIRED, Status.RESTORED);
        assertThat(row(spec, 1)).isNull();
        assertThat(row(spec, 2).getInt("ttl")).isBetween(86_400 - 180, 86_400 - 120);
    }

    @Test
    void clusteredRowsWithColumnsOfDifferentTtlsComeBackWholeAndRestoringTwiceSaysAlreadyRestored() {
        String table = "events_" + TABLES.incrementAndGet();
        direct.execute("CREATE TABLE " + KEYSPACE + "." + table
                + " (customer text, at timestamp, kind text, payload map<text, int>, PRIMARY KEY (customer, at))"
                + " WITH CLUSTERING ORDER BY (at DESC)");
        DatasetSpec spec = BulkFixtures.spec(KEYSPACE, table, KeyColumns.of(List.of("customer"), List.of("at")), "customer");
        adapter.checkDataset(spec);
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Instant at = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i);
            direct.execute(direct.prepare("INSERT INTO " + spec.quotedTable() + " (customer, at, kind) VALUES (?, ?, ?)"
                    + " USING TIMESTAMP ? AND TTL 7200").bind("c-1", at, "kind-" + i, BEFORE));
            direct.execute(direct.prepare("UPDATE " + spec.quotedTable() + " USING TIMESTAMP ? SET payload = ?"
                    + " WHERE customer = ? AND at = ?").bind(BEFORE, Map.of("n", i), "c-1", at));
            keys.add(Map.of("customer", "c-1", "at", at.toString()));
        }
        List<LiveRow> before = adapter.readRows(spec, keys);
        assertThat(before).hasSize(5);
        List<DeletionRecord> records = delete(spec, before);

        RestoreOutcome first = bulk.restore(spec, records);
        RestoreOutcome second = bulk.restore(spec, records);

        assertThat(first.count(Status.RESTORED)).isEqualTo(5);
        assertThat(second.records()).allSatisfy(r -> assertThat(r.detail()).isEqualTo("already restored"));
        List<LiveRow> after = adapter.readRows(spec, keys);
        for (int i = 0; i < 5; i++) {
            assertThat(values(after.get(i))).isEqualTo(values(before.get(i)));
        }
        Row row = direct.execute("SELECT TTL(kind) AS ttl_kind, WRITETIME(kind) AS wt FROM " + spec.quotedTable()
                + " WHERE customer = 'c-1' LIMIT 1").one();
        assertThat(row.getInt("ttl_kind")).isBetween(7000, 7200);
        assertThat(row.getLong("wt")).isEqualTo(CUTOFF.restoreWriteTimeMicros());
    }

    private DatasetSpec profiles() {
        String table = "profiles_" + TABLES.incrementAndGet();
        direct.execute("CREATE TABLE " + KEYSPACE + "." + table + " (id bigint PRIMARY KEY, name text, email text)");
        DatasetSpec spec = BulkFixtures.spec(KEYSPACE, table, KeyColumns.partitionOnly("id"), "id");
        adapter.checkDataset(spec);
        return spec;
    }

    private static List<Map<String, Object>> keys(List<Long> ids) {
        return ids.stream().<Map<String, Object>>map(id -> Map.of("id", id)).toList();
    }

    private void write(DatasetSpec spec, long id, String name, String email, int ttl) {
        direct.execute(direct.prepare("INSERT INTO " + spec.quotedTable() + " (id, name, email) VALUES (?, ?, ?)"
                + " USING TIMESTAMP ? AND TTL ?").bind(id, name, email, BEFORE, ttl));
    }

    /** Deletes the rows at the cut-off through the adapter and returns their deletion records. */
    private List<DeletionRecord> delete(DatasetSpec spec, List<LiveRow> rows) {
        List<Map<String, Object>> keys = rows.stream().map(LiveRow::key).toList();
        DeletionTask task = DeletionTask.forRun(RunId.of("run-bulk"), spec, keys, CUTOFF);
        List<DeletionRecord> records = rows.stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), Instant.now()))
                .toList();
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "batch-1", CUTOFF, keys)));
        assertThat(adapter.readRows(spec, keys)).isEmpty();
        return records;
    }

    private static Map<String, Object> values(LiveRow row) {
        Map<String, Object> values = new java.util.TreeMap<>();
        row.columns().forEach(column -> values.put(column.name(), column.value() == null ? "<null>" : column.value()));
        return values;
    }

    private Row row(DatasetSpec spec, long id) {
        return direct.execute(direct.prepare("SELECT name, email, WRITETIME(name) AS wt, TTL(name) AS ttl FROM "
                + spec.quotedTable() + " WHERE id = ?").bind(id)).one();
    }
}
