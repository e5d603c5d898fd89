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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bulk path's {@code sstableloader} loader against the real local node (forced: {@code auto} imports for a local
 * node): SSTables written in a child JVM, streamed by {@code org.apache.cassandra.tools.BulkLoader} in another, read
 * back, with the same rules as the import (cut-off + 1 µs, remaining TTL, newer data kept).
 */
class BulkRestorerSSTableLoaderIT {

    private static final String KEYSPACE = "bulk_loader_restores";
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
        bulk = BulkFixtures.bulkRestorer(adapter, Clock.systemUTC(), BulkSettings.Loader.SSTABLELOADER, direct);
    }

    @AfterAll
    static void close() {
        adapter.close();
        direct.close();
    }

    @Test
    void rowsStreamedBySstableloaderComeBackIdenticalAtTheCutoffPlusOneMicrosecondWithTheirRemainingTtl() {
        DatasetSpec spec = profiles();
        List<Long> ids = LongStream.rangeClosed(1, 30).boxed().toList();
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
    void aRowReinsertedAfterTheDeleteIsKeptAndTheOthersAreStreamed() {
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

    private List<DeletionRecord> delete(DatasetSpec spec, List<LiveRow> rows) {
        List<Map<String, Object>> keys = rows.stream().map(LiveRow::key).toList();
        DeletionTask task = DeletionTask.forRun(RunId.of("run-bulk-loader"), spec, keys, CUTOFF);
        List<DeletionRecord> records = rows.stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), Instant.now()))
                .toList();
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "batch-1", CUTOFF, keys)));
        assertThat(adapter.readRows(spec, keys)).isEmpty();
        return records;
    }

    private static Map<String, Object> values(LiveRow row) {
        Map<String, Object> values = new TreeMap<>();
        row.columns().forEach(column -> values.put(column.name(), column.value() == null ? "<null>" : column.value()));
        return values;
    }

    private Row row(DatasetSpec spec, long id) {
        return direct.execute(direct.prepare("SELECT name, email, WRITETIME(name) AS wt, TTL(name) AS ttl FROM "
                + spec.quotedTable() + " WHERE id = ?").bind(id)).one();
    }
}
