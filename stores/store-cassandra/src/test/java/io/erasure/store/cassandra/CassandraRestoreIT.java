package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Restores with remaining TTLs measured against an injected clock, and what a restore refuses to do. */
class CassandraRestoreIT {

    private static final String KEYSPACE = "restores";
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final long BEFORE = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(BEFORE + 1_000_000);

    private static CqlSession direct;
    private static CassandraStoreAdapter adapter;

    private DatasetSpec spec;

    @BeforeAll
    static void open() {
        direct = CassandraFixtures.directSession();
        CassandraFixtures.createKeyspace(direct, KEYSPACE, 1);
        adapter = CassandraFixtures.openAdapter(Map.of());
    }

    @AfterAll
    static void close() {
        adapter.close();
        direct.close();
    }

    @BeforeEach
    void freshTable() {
        String table = "profiles_" + TABLES.incrementAndGet();
        direct.execute("CREATE TABLE " + KEYSPACE + "." + table + " (id bigint PRIMARY KEY, name text, email text)");
        spec = CassandraFixtures.spec(KEYSPACE, table, KeyColumns.partitionOnly("id"), "id");
        adapter.checkDataset(spec);
    }

    @Test
    void aRecordWhoseEveryColumnOutlivedItsTtlIsExpiredAndNothingIsWritten() {
        write(1, "alice", "a@example.com", 60);
        List<DeletionRecord> records = readAndDelete(1);

        RestoreOutcome outcome = restoreAt(Duration.ofMinutes(2), records);

        assertThat(outcome.records())
                .singleElement()
                .extracting(RecordOutcome::status)
                .isEqualTo(Status.EXPIRED);
        assertThat(row(1)).isNull();
    }

    @Test
    void onlyTheColumnsWhoseTtlRanOutAreLeftOut() {
        direct.execute(direct.prepare("INSERT INTO " + spec.quotedTable() + " (id, name) VALUES (?, ?)"
                        + " USING TIMESTAMP ? AND TTL 60")
                .bind(2L, "bob", BEFORE));
        direct.execute(direct.prepare("UPDATE " + spec.quotedTable() + " USING TIMESTAMP ? SET email = ? WHERE id = ?")
                .bind(BEFORE, "b@example.com", 2L));
        List<DeletionRecord> records = readAndDelete(2);

        RestoreOutcome outcome = restoreAt(Duration.ofMinutes(2), records);

        assertThat(outcome.count(Status.RESTORED)).isEqualTo(1);
        Row row = row(2);
        assertThat(row.getString("name")).isNull();
        assertThat(row.getString("email")).isEqualTo("b@example.com");
        assertThat(row.getLong("wt")).isEqualTo(CUTOFF.restoreWriteTimeMicros());
    }

    @Test
    void aRestoredColumnGetsTheTtlItHadLeftMinusTheTimeSinceTheDelete() {
        write(3, "carol", "c@example.com", 3600);
        List<DeletionRecord> records = readAndDelete(3);

        restoreAt(Duration.ofSeconds(600), records);

        assertThat(row(3).getInt("ttl")).isBetween(2990, 3000);
    }

    @Test
    void restoringTwiceRestoresOnceAndSaysSo() {
        write(4, "dave", "d@example.com", null);
        List<DeletionRecord> records = readAndDelete(4);

        RestoreOutcome first = adapter.restore(spec, records);
        RestoreOutcome second = adapter.restore(spec, records);

        assertThat(first.records())
                .singleElement()
                .extracting(RecordOutcome::status)
                .isEqualTo(Status.RESTORED);
        assertThat(second.records()).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(Status.NEWER_DATA_KEPT);
            assertThat(r.detail()).isEqualTo("already restored");
        });
        assertThat(row(4).getString("name")).isEqualTo("dave");
    }

    @Test
    void aRecordWhoseColumnsAreInS3FailsWithAPointerToTheRecoveryService() {
        write(5, "erin", "e@example.com", null);
        DeletionRecord record = readAndDelete(5).get(0);
        DeletionRecord retained =
                record.withRetainedColumns("retained/" + spec.name() + "/run-restore/" + record.recordId());

        RestoreOutcome outcome = adapter.restore(spec, List.of(retained, record));

        assertThat(outcome.records()).extracting(RecordOutcome::status).containsExactly(Status.FAILED, Status.RESTORED);
        assertThat(outcome.records().get(0).detail()).contains("S3").contains("recovery service");
    }

    /**
     * A write lands between the plan and the delete: the delete at the cut-off removes the older cells, and the one
     * written after it survives. The restore puts back every cell that has no newer one, at the cut-off + 1 µs, and
     * keeps the newer cell (DESIGN invariant 3, cell by cell).
     */
    @Test
    void aPartlyDeletedRowGetsBackEveryCellThatHasNoNewerOneAndKeepsTheNewerCell() {
        String table = "partly_" + TABLES.incrementAndGet();
        direct.execute("CREATE TABLE " + KEYSPACE + "." + table + " (id bigint PRIMARY KEY, a text, b text, c int)");
        DatasetSpec partly = CassandraFixtures.spec(KEYSPACE, table, KeyColumns.partitionOnly("id"), "id");
        adapter.checkDataset(partly);
        direct.execute(direct.prepare("INSERT INTO " + partly.quotedTable() + " (id, a, b, c) VALUES (?, ?, ?, ?)"
                        + " USING TIMESTAMP ?")
                .bind(9L, "a-logged", "b-logged", 42, BEFORE));
        List<Map<String, Object>> keys = List.of(Map.of("id", 9L));
        DeletionTask task = DeletionTask.forRun(RunId.of("run-partly"), partly, keys, CUTOFF);
        List<DeletionRecord> records = adapter.readRows(partly, keys).stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), Instant.now()))
                .toList();
        var plan = adapter.planDelete(new DeleteBatch(partly, "batch-1", CUTOFF, keys));
        long newer = CUTOFF.micros() + 5_000_000;
        // the application's write between the plan and the delete
        direct.execute(direct.prepare("UPDATE " + partly.quotedTable() + " USING TIMESTAMP ? SET b = ? WHERE id = ?")
                .bind(newer, "b-newer", 9L));
        adapter.executeDelete(plan);
        Row deleted = direct.execute(direct.prepare("SELECT a, b, c FROM " + partly.quotedTable() + " WHERE id = ?")
                        .bind(9L))
                .one();
        assertThat(deleted).as("only the newer cell survived the delete").isNotNull();
        assertThat(deleted.isNull("a")).isTrue();
        assertThat(deleted.getString("b")).isEqualTo("b-newer");

        RestoreOutcome outcome = adapter.restore(partly, records);

        assertThat(outcome.records()).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(Status.RESTORED);
            assertThat(r.detail()).contains("2 of 3 cells").contains("b");
        });
        Row row = direct.execute(direct.prepare("SELECT a, b, c, WRITETIME(a) AS a_wt, WRITETIME(b) AS b_wt,"
                                + " WRITETIME(c) AS c_wt FROM " + partly.quotedTable() + " WHERE id = ?")
                        .bind(9L))
                .one();
        assertThat(row.getString("a")).isEqualTo("a-logged");
        assertThat(row.getInt("c")).isEqualTo(42);
        assertThat(row.getLong("a_wt")).isEqualTo(CUTOFF.restoreWriteTimeMicros());
        assertThat(row.getLong("c_wt")).isEqualTo(CUTOFF.restoreWriteTimeMicros());
        assertThat(row.getString("b")).as("the newer cell is kept").isEqualTo("b-newer");
        assertThat(row.getLong("b_wt")).isEqualTo(newer);

        RestoreOutcome again = adapter.restore(partly, records);

        assertThat(again.records()).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(Status.NEWER_DATA_KEPT);
            assertThat(r.detail()).startsWith("already restored");
        });
    }

    private void write(long id, String name, String email, Integer ttl) {
        direct.execute(direct.prepare("INSERT INTO " + spec.quotedTable() + " (id, name, email) VALUES (?, ?, ?)"
                        + " USING TIMESTAMP ? AND TTL ?")
                .bind(id, name, email, BEFORE, ttl == null ? 0 : ttl));
    }

    private List<DeletionRecord> readAndDelete(long id) {
        List<Map<String, Object>> keys = List.of(Map.of("id", id));
        List<LiveRow> rows = adapter.readRows(spec, keys);
        DeletionTask task = DeletionTask.forRun(RunId.of("run-restore"), spec, keys, CUTOFF);
        List<DeletionRecord> records = rows.stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), Instant.now()))
                .toList();
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "batch-1", CUTOFF, keys)));
        assertThat(row(id)).isNull();
        return records;
    }

    private RestoreOutcome restoreAt(Duration later, List<DeletionRecord> records) {
        Clock clock = Clock.fixed(Instant.now().plus(later), ZoneOffset.UTC);
        try (CassandraStoreAdapter inTheFuture = CassandraFixtures.openAdapter(Map.of(), clock)) {
            return inTheFuture.restore(spec, records);
        }
    }

    private Row row(long id) {
        return direct.execute(direct.prepare("SELECT name, email, WRITETIME(email) AS wt, TTL(name) AS ttl FROM "
                                + spec.quotedTable() + " WHERE id = ?")
                        .bind(id))
                .one();
    }
}
