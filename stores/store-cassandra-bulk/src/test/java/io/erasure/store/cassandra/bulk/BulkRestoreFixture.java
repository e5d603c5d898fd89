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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.stream.LongStream;

/**
 * One bulk-restore IT class's view of the local node: its keyspace, a direct session, an adapter and the bulk restorer
 * under test, rows written an hour before a cut-off, deleted at it through the adapter, and the checks shared by the
 * import and {@code sstableloader} paths.
 */
final class BulkRestoreFixture implements AutoCloseable {

    private final String keyspace;
    private final String runId;
    private final AtomicInteger tables = new AtomicInteger();
    private final long before = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private final CutoffTimestamp cutoff = new CutoffTimestamp(before + 1_000_000);
    private final CqlSession direct;
    private final CassandraStoreAdapter adapter;
    private final BulkRestorer bulk;

    private BulkRestoreFixture(
            String keyspace, String runId, BiFunction<CassandraStoreAdapter, CqlSession, BulkRestorer> restorer) {
        this.keyspace = keyspace;
        this.runId = runId;
        this.direct = BulkFixtures.directSession();
        BulkFixtures.createKeyspace(direct, keyspace);
        this.adapter = BulkFixtures.openAdapter();
        this.bulk = restorer.apply(adapter, direct);
    }

    /** Opens the session and adapter, creates {@code keyspace}; {@code restorer} builds the restorer under test. */
    static BulkRestoreFixture open(
            String keyspace, String runId, BiFunction<CassandraStoreAdapter, CqlSession, BulkRestorer> restorer) {
        return new BulkRestoreFixture(keyspace, runId, restorer);
    }

    @Override
    public void close() {
        adapter.close();
        direct.close();
    }

    CqlSession direct() {
        return direct;
    }

    CassandraStoreAdapter adapter() {
        return adapter;
    }

    BulkRestorer bulk() {
        return bulk;
    }

    String keyspace() {
        return keyspace;
    }

    /** The write time of the rows written before the cut-off. */
    long before() {
        return before;
    }

    CutoffTimestamp cutoff() {
        return cutoff;
    }

    /** A table name not used yet in this fixture's keyspace. */
    String newTable(String prefix) {
        return prefix + "_" + tables.incrementAndGet();
    }

    /** A new {@code (id bigint PRIMARY KEY, name text, email text)} table, checked by the adapter. */
    DatasetSpec profiles() {
        String table = newTable("profiles");
        direct.execute("CREATE TABLE " + keyspace + "." + table + " (id bigint PRIMARY KEY, name text, email text)");
        DatasetSpec spec = BulkFixtures.spec(keyspace, table, KeyColumns.partitionOnly("id"), "id");
        adapter.checkDataset(spec);
        return spec;
    }

    static List<Map<String, Object>> keys(List<Long> ids) {
        return ids.stream().<Map<String, Object>>map(id -> Map.of("id", id)).toList();
    }

    /** Writes a profile row before the cut-off. */
    void write(DatasetSpec spec, long id, String name, String email, int ttl) {
        direct.execute(direct.prepare("INSERT INTO " + spec.quotedTable() + " (id, name, email) VALUES (?, ?, ?)"
                        + " USING TIMESTAMP ? AND TTL ?")
                .bind(id, name, email, before, ttl));
    }

    /** Deletes the rows at the cut-off through the adapter and returns their deletion records. */
    List<DeletionRecord> delete(DatasetSpec spec, List<LiveRow> rows) {
        List<Map<String, Object>> keys = rows.stream().map(LiveRow::key).toList();
        DeletionTask task = DeletionTask.forRun(RunId.of(runId), spec, keys, cutoff);
        List<DeletionRecord> records = rows.stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), Instant.now()))
                .toList();
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "batch-1", cutoff, keys)));
        assertThat(adapter.readRows(spec, keys)).isEmpty();
        return records;
    }

    static Map<String, Object> values(LiveRow row) {
        Map<String, Object> values = new TreeMap<>();
        row.columns().forEach(column -> values.put(column.name(), column.value() == null ? "<null>" : column.value()));
        return values;
    }

    /** The profile row's name, email, and the write time and TTL of its name, or null. */
    Row row(DatasetSpec spec, long id) {
        return direct.execute(direct.prepare("SELECT name, email, WRITETIME(name) AS wt, TTL(name) AS ttl FROM "
                                + spec.quotedTable() + " WHERE id = ?")
                        .bind(id))
                .one();
    }

    /**
     * Writes {@code count} profiles (every other email null, every fourth without TTL, the rest with an hour), deletes
     * them, restores them, and checks they come back identical at the cut-off + 1 µs with their remaining TTL.
     */
    void deletedProfilesComeBackIdenticalAtTheCutoffPlusOneMicrosecondWithTheirRemainingTtl(int count) {
        DatasetSpec spec = profiles();
        List<Long> ids = LongStream.rangeClosed(1, count).boxed().toList();
        for (long id : ids) {
            write(spec, id, "name-" + id, id % 2 == 0 ? null : "e" + id + "@example.com", id % 4 == 1 ? 0 : 3600);
        }
        List<LiveRow> rowsBefore = adapter.readRows(spec, keys(ids));
        List<DeletionRecord> records = delete(spec, rowsBefore);

        RestoreOutcome outcome = bulk.restore(spec, records);

        assertThat(outcome.count(Status.RESTORED)).isEqualTo(ids.size());
        List<LiveRow> after = adapter.readRows(spec, keys(ids));
        assertThat(after).hasSize(rowsBefore.size());
        for (int i = 0; i < rowsBefore.size(); i++) {
            assertThat(values(after.get(i))).isEqualTo(values(rowsBefore.get(i)));
            for (ColumnValue column : after.get(i).columns()) {
                if (column.writeTimeMicros() != null) {
                    assertThat(column.writeTimeMicros()).isEqualTo(cutoff.restoreWriteTimeMicros());
                }
            }
        }
        Row ttlRow = row(spec, 2);
        assertThat(ttlRow.getInt("ttl")).isBetween(3500, 3600);
        assertThat(ttlRow.getLong("wt")).isEqualTo(cutoff.restoreWriteTimeMicros());
        assertThat(row(spec, 1).isNull("ttl"))
                .as("a column without TTL comes back without one")
                .isTrue();
    }

    /**
     * Deletes three profiles, re-inserts the second's name, restores: the second keeps its new name and gets back the
     * cell that has no newer one (its email, cell by cell as online), the others come back whole.
     */
    void aRowReinsertedAfterTheDeleteIsKeptAndTheOthersAreRestored() {
        DatasetSpec spec = profiles();
        List<Long> ids = List.of(1L, 2L, 3L);
        ids.forEach(id -> write(spec, id, "old-" + id, "old@example.com", 0));
        List<DeletionRecord> records = delete(spec, adapter.readRows(spec, keys(ids)));
        direct.execute("INSERT INTO " + spec.quotedTable() + " (id, name) VALUES (2, 'new-2')");

        RestoreOutcome outcome = bulk.restore(spec, records);

        assertThat(outcome.records())
                .extracting(RecordOutcome::status)
                .containsExactly(Status.RESTORED, Status.RESTORED, Status.RESTORED);
        assertThat(outcome.records().get(1).detail()).contains("1 of 2 cells").contains("name");
        assertThat(row(spec, 2).getString("name")).as("the newer cell is kept").isEqualTo("new-2");
        assertThat(row(spec, 2).getString("email"))
                .as("the cell without a newer one is back")
                .isEqualTo("old@example.com");
        assertThat(row(spec, 3).getString("name")).isEqualTo("old-3");
    }
}
