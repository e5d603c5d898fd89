package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.DeletePlan.KeyDecision;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.PlannedStatement;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import io.erasure.store.spi.StoreException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Anonymisation: the clear columns of the rows are deleted at the cut-off and the rows kept, on a table of orders
 * keyed by customer ({@code PRIMARY KEY ((customer_id), order_id)}); and the restore of its records.
 */
class CassandraAnonymiseIT {

    private static final String KEYSPACE = "anonymise";
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final long BEFORE = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(BEFORE + 1_000_000);
    private static final long AFTER = CUTOFF.micros() + 1_000;
    private static final List<String> CLEAR = List.of("name", "email");

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
        String table = "orders_" + TABLES.incrementAndGet();
        direct.execute("CREATE TABLE " + KEYSPACE + "." + table + " (customer_id bigint, order_id int, name text,"
                + " email text, item text, PRIMARY KEY ((customer_id), order_id))");
        spec = CassandraFixtures.spec(
                KEYSPACE, table, KeyColumns.of(List.of("customer_id"), List.of("order_id")), "customer_id");
        adapter.checkDataset(spec);
    }

    @Test
    void theClearColumnsAreGoneTheRowsAndTheirOtherColumnsStay() {
        write(1, 1, BEFORE);
        write(1, 2, BEFORE);

        DeletePlan plan = adapter.planDelete(batch(keys(1, 1, 2)));
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(plan.decisions()).extracting(KeyDecision::action).containsOnly(Action.CLEAR_COLUMNS);
        // the whole partition is in the batch, yet never a partition (or row) delete
        assertThat(plan.statements())
                .extracting(PlannedStatement::text)
                .containsOnly("DELETE \"name\", \"email\" FROM \""
                        + KEYSPACE + "\".\"" + spec.table() + "\" USING TIMESTAMP ? WHERE \"customer_id\" = fromJson(?)"
                        + " AND \"order_id\" = fromJson(?)");
        assertThat(plan.statements())
                .allSatisfy(s -> assertThat(s.values().get(0)).isEqualTo(CUTOFF.micros()));
        assertThat(outcome).isEqualTo(new DeleteOutcome(2, 0, 0, 4, 2));
        for (int order = 1; order <= 2; order++) {
            Row row = row(1, order);
            assertThat(row).isNotNull();
            assertThat(row.getString("name")).isNull();
            assertThat(row.getString("email")).isNull();
            assertThat(row.getString("item")).isEqualTo("item-1-" + order);
            assertThat(row.getLong("item_wt")).isEqualTo(BEFORE);
        }
    }

    @Test
    void aRowWithAnyCellWrittenAfterTheCutoffIsSkippedAndKeptWhole() {
        write(2, 1, BEFORE);
        write(2, 2, BEFORE);
        direct.execute(direct.prepare("UPDATE " + spec.quotedTable() + " USING TIMESTAMP ? SET item = 'reordered'"
                        + " WHERE customer_id = 2 AND order_id = 2")
                .bind(AFTER));

        DeletePlan plan = adapter.planDelete(batch(keys(2, 1, 2)));
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(plan.decisions())
                .extracting(KeyDecision::action)
                .containsExactly(Action.CLEAR_COLUMNS, Action.SKIP_WRITTEN_AFTER_CUTOFF);
        assertThat(outcome).isEqualTo(new DeleteOutcome(1, 1, 0, 2, 1));
        assertThat(row(2, 1).getString("name")).isNull();
        Row skipped = row(2, 2);
        assertThat(skipped.getString("name")).isEqualTo("name-2-2");
        assertThat(skipped.getString("email")).isEqualTo("2-2@example.com");
        assertThat(skipped.getString("item")).isEqualTo("reordered");
    }

    @Test
    void aClearColumnWrittenBetweenPlanAndExecuteSurvives() {
        write(3, 1, BEFORE);
        DeletePlan plan = adapter.planDelete(batch(keys(3, 1)));

        direct.execute(
                direct.prepare("UPDATE " + spec.quotedTable() + " USING TIMESTAMP ? SET email = 'new@example.com'"
                                + " WHERE customer_id = 3 AND order_id = 1")
                        .bind(AFTER));
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(outcome.deleted()).isEqualTo(1);
        Row row = row(3, 1);
        assertThat(row.getString("name")).isNull();
        assertThat(row.getString("email")).isEqualTo("new@example.com");
        assertThat(row.getString("item")).isEqualTo("item-3-1");
    }

    @Test
    void aKeyWithoutARowIsAbsentAndNothingIsWritten() {
        DeletePlan plan = adapter.planDelete(batch(keys(4, 1)));
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(plan.decisions()).extracting(KeyDecision::action).containsExactly(Action.ABSENT);
        assertThat(plan.statements()).isEmpty();
        assertThat(outcome).isEqualTo(new DeleteOutcome(0, 0, 1, 0, 0));
        assertThat(row(4, 1)).isNull();
    }

    @Test
    void aClearColumnTheTableDoesNotHaveIsRefusedBeforeAnythingIsRead() {
        write(5, 1, BEFORE);
        DeleteBatch batch = new DeleteBatch(spec, "batch-1", CUTOFF, keys(5, 1), List.of("name", "phone"));

        assertThatThrownBy(() -> adapter.planDelete(batch))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'phone'")
                .hasMessageContaining(spec.table());
        assertThat(row(5, 1).getString("name")).isEqualTo("name-5-1");
    }

    @Test
    void anAnonymisedRecordPutsBackOnlyItsCellsAtTheCutoffPlusOneMicrosecond() {
        write(6, 1, BEFORE);
        direct.execute(direct.prepare("UPDATE " + spec.quotedTable() + " USING TIMESTAMP ? AND TTL 3600"
                        + " SET email = '6-1@example.com' WHERE customer_id = 6 AND order_id = 1")
                .bind(BEFORE + 1));
        List<DeletionRecord> records = readAndClear(keys(6, 1));
        direct.execute(direct.prepare("UPDATE " + spec.quotedTable() + " USING TIMESTAMP ? SET item = 'changed later'"
                        + " WHERE customer_id = 6 AND order_id = 1")
                .bind(AFTER));

        RestoreOutcome outcome = adapter.restore(spec, records);

        assertThat(outcome.records())
                .singleElement()
                .extracting(RecordOutcome::status)
                .isEqualTo(Status.RESTORED);
        Row row = row(6, 1);
        assertThat(row.getString("name")).isEqualTo("name-6-1");
        assertThat(row.getString("email")).isEqualTo("6-1@example.com");
        assertThat(row.getLong("name_wt")).isEqualTo(CUTOFF.restoreWriteTimeMicros());
        assertThat(row.getLong("email_wt")).isEqualTo(CUTOFF.restoreWriteTimeMicros());
        assertThat(row.getInt("email_ttl")).isBetween(3500, 3600);
        assertThat(row.isNull("name_ttl")).isTrue();
        // a column the anonymisation did not clear is not touched, even though it changed since
        assertThat(row.getString("item")).isEqualTo("changed later");
        assertThat(row.getLong("item_wt")).isEqualTo(AFTER);
    }

    @Test
    void anAnonymisedRecordIsNotRestoredOverACellWrittenAfterTheClear() {
        write(7, 1, BEFORE);
        List<DeletionRecord> records = readAndClear(keys(7, 1));
        direct.execute(
                direct.prepare("UPDATE " + spec.quotedTable() + " USING TIMESTAMP ? SET email = 'new@example.com'"
                                + " WHERE customer_id = 7 AND order_id = 1")
                        .bind(AFTER));

        RestoreOutcome outcome = adapter.restore(spec, records);

        assertThat(outcome.records()).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(Status.NEWER_DATA_KEPT);
            assertThat(r.detail()).contains(String.valueOf(AFTER));
        });
        Row row = row(7, 1);
        assertThat(row.getString("email")).isEqualTo("new@example.com");
        assertThat(row.getString("name")).as("cells are never merged").isNull();
    }

    @Test
    void restoringAnAnonymisedRecordTwiceRestoresOnceAndSaysSo() {
        write(8, 1, BEFORE);
        List<DeletionRecord> records = readAndClear(keys(8, 1));

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
        assertThat(row(8, 1).getString("name")).isEqualTo("name-8-1");
    }

    /** What the deletion service does: read the rows, log the clear columns' values, then clear them. */
    private List<DeletionRecord> readAndClear(List<Map<String, Object>> keys) {
        DeletionTask task = DeletionTask.forward("request-anonymise", spec, keys, CUTOFF, 5, CLEAR);
        List<LiveRow> rows = adapter.readRows(spec, keys);
        List<DeletionRecord> records = rows.stream()
                .map(row -> DeletionRecord.of(task, task.batchId(0), row.key(), cleared(row), Instant.now()))
                .toList();
        assertThat(records)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.anonymised()).isTrue());
        DeleteOutcome outcome = adapter.executeDelete(adapter.planDelete(batch(keys)));
        assertThat(outcome.deleted()).isEqualTo(keys.size());
        return records;
    }

    private static List<ColumnValue> cleared(LiveRow row) {
        return row.columns().stream().filter(c -> CLEAR.contains(c.name())).toList();
    }

    private DeleteBatch batch(List<Map<String, Object>> keys) {
        return new DeleteBatch(spec, "batch-1", CUTOFF, keys, CLEAR);
    }

    private static List<Map<String, Object>> keys(long customer, int... orderIds) {
        return Arrays.stream(orderIds)
                .<Map<String, Object>>mapToObj(order -> Map.of("customer_id", customer, "order_id", order))
                .toList();
    }

    private void write(long customer, int order, long writeTime) {
        direct.execute(direct.prepare("INSERT INTO " + spec.quotedTable()
                        + " (customer_id, order_id, name, email, item)" + " VALUES (?, ?, ?, ?, ?) USING TIMESTAMP ?")
                .bind(
                        customer,
                        order,
                        "name-" + customer + "-" + order,
                        customer + "-" + order + "@example.com",
                        "item-" + customer + "-" + order,
                        writeTime));
    }

    private Row row(long customer, int order) {
        return direct.execute(direct.prepare("SELECT name, email, item, WRITETIME(name) AS name_wt,"
                                + " WRITETIME(email) AS email_wt, WRITETIME(item) AS item_wt, TTL(name) AS name_ttl,"
                                + " TTL(email) AS email_ttl FROM " + spec.quotedTable()
                                + " WHERE customer_id = ? AND order_id = ?")
                        .bind(customer, order))
                .one();
    }
}
