package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.DeletePlan.KeyDecision;
import io.erasure.store.spi.PlannedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When a partition delete replaces row deletes, and the row tombstone cap, on a table of orders keyed by
 * customer ({@code PRIMARY KEY ((customer_id), order_id)}).
 */
class CassandraDeletePlanIT {

    private static final String KEYSPACE = "plans";
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final long BEFORE = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(BEFORE + 1_000_000);
    private static final long AFTER = CUTOFF.micros() + 1_000;

    private static CqlSession direct;
    private static CassandraStoreAdapter adapter;

    private String table;
    private DatasetSpec byCustomer;

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
        table = "orders_" + TABLES.incrementAndGet();
        direct.execute("CREATE TABLE " + KEYSPACE + "." + table
                + " (customer_id bigint, order_id int, item text, PRIMARY KEY ((customer_id), order_id))");
        byCustomer = spec("customer_id");
        adapter.checkDataset(byCustomer);
    }

    @Test
    void aPartitionHoldingOnlyTheBatchsRowsIsDeletedWithOnePartitionDelete() {
        writeOrders(1, 3, BEFORE);

        DeletePlan plan = adapter.planDelete(batch(byCustomer, orders(1, 1, 2, 3)));

        assertThat(plan.decisions()).extracting(KeyDecision::action).containsOnly(Action.DELETE_PARTITION);
        assertThat(plan.statements()).singleElement().satisfies(statement -> {
            assertThat(statement.text())
                    .isEqualTo("DELETE FROM \"plans\".\"" + table
                            + "\" USING TIMESTAMP ? WHERE \"customer_id\" = fromJson(?)");
            assertThat(statement.values()).containsExactly(CUTOFF.micros(), "1");
        });
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(outcome).isEqualTo(new DeleteOutcome(3, 0, 0, 1, 1));
        assertThat(orderIds(1)).isEmpty();
    }

    @Test
    void aPartitionWithARowOutsideTheBatchGetsRowDeletesAndTheOtherRowSurvives() {
        writeOrders(2, 3, BEFORE);

        DeletePlan plan = adapter.planDelete(batch(byCustomer, orders(2, 1, 2)));
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(plan.decisions()).extracting(KeyDecision::action).containsOnly(Action.DELETE_ROW);
        assertThat(plan.statements())
                .hasSize(2)
                .allSatisfy(s -> assertThat(s.text()).contains("\"order_id\" = fromJson(?)"));
        assertThat(outcome.deleted()).isEqualTo(2);
        assertThat(outcome.tombstones()).isEqualTo(2);
        assertThat(orderIds(2)).containsExactly(3);
    }

    @Test
    void aPartitionWithARowNewerThanTheCutoffGetsRowDeletesAndTheNewerRowSurvives() {
        writeOrders(3, 2, BEFORE);
        writeOrder(3, 3, "bought after the backup", AFTER);

        DeletePlan plan = adapter.planDelete(batch(byCustomer, orders(3, 1, 2, 3)));
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(plan.decisions())
                .extracting(KeyDecision::action)
                .containsExactly(Action.DELETE_ROW, Action.DELETE_ROW, Action.SKIP_WRITTEN_AFTER_CUTOFF);
        assertThat(plan.statements()).noneMatch(s -> s.text().endsWith("\"customer_id\" = fromJson(?)"));
        assertThat(outcome.deleted()).isEqualTo(2);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(orderIds(3)).containsExactly(3);
    }

    @Test
    void onlyPartitionsThatQualifyArePartitionDeletedInAMixedBatch() {
        writeOrders(4, 2, BEFORE);
        writeOrders(5, 2, BEFORE);
        List<Map<String, Object>> keys = new ArrayList<>(orders(4, 1, 2));
        keys.addAll(orders(5, 1));
        keys.add(order(6, 1)); // absent

        DeletePlan plan = adapter.planDelete(batch(byCustomer, keys));
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(plan.decisions())
                .extracting(KeyDecision::action)
                .containsExactly(Action.DELETE_PARTITION, Action.DELETE_PARTITION, Action.DELETE_ROW, Action.ABSENT);
        assertThat(outcome).isEqualTo(new DeleteOutcome(3, 0, 1, 2, 2));
        assertThat(orderIds(4)).isEmpty();
        assertThat(orderIds(5)).containsExactly(2);
    }

    @Test
    void withTheIdentifierOutsideThePartitionKeyAWholePartitionStillGetsRowDeletes() {
        DatasetSpec byOrder = spec("order_id");
        adapter.checkDataset(byOrder);
        writeOrders(7, 2, BEFORE);

        DeletePlan plan = adapter.planDelete(batch(byOrder, orders(7, 1, 2)));
        adapter.executeDelete(plan);

        assertThat(plan.decisions()).extracting(KeyDecision::action).containsOnly(Action.DELETE_ROW);
        assertThat(orderIds(7)).isEmpty();
    }

    @Test
    void oneRowSpelledTwoWaysInABatchDoesNotPassForTwoRows() {
        String events = "events_" + TABLES.incrementAndGet();
        direct.execute("CREATE TABLE " + KEYSPACE + "." + events + " (customer_id bigint, at timestamp, what text,"
                + " PRIMARY KEY ((customer_id), at))");
        DatasetSpec spec = CassandraFixtures.spec(
                KEYSPACE, events, KeyColumns.of(List.of("customer_id"), List.of("at")), "customer_id");
        for (String at : List.of("2024-01-01 00:00:00Z", "2024-01-02 00:00:00Z")) {
            direct.execute(direct.prepare("INSERT INTO " + KEYSPACE + "." + events + " (customer_id, at, what)"
                            + " VALUES (1, '" + at + "', 'login') USING TIMESTAMP ?")
                    .bind(BEFORE));
        }
        // the same row twice: the partition also holds a second row the batch does not name
        List<Map<String, Object>> keys = List.of(
                Map.of("customer_id", 1L, "at", "2024-01-01T00:00:00Z"),
                Map.of("customer_id", 1L, "at", "2024-01-01T00:00:00.000Z"));

        DeletePlan plan = adapter.planDelete(batch(spec, keys));
        adapter.executeDelete(plan);

        assertThat(plan.decisions()).extracting(KeyDecision::action).containsOnly(Action.DELETE_ROW);
        assertThat(direct.execute("SELECT at FROM " + KEYSPACE + "." + events + " WHERE customer_id = 1")
                        .all())
                .singleElement()
                .satisfies(row -> assertThat(row.getInstant("at")).isEqualTo("2024-01-02T00:00:00Z"));
    }

    @Test
    void rowDeletesBeyondTheTombstoneCapAreSplitIntoFurtherBatchesAndAllDeleted() {
        DatasetSpec byOrder = spec("order_id");
        writeOrders(8, 10, BEFORE);
        writeOrders(9, 1, BEFORE);
        List<Map<String, Object>> keys = new ArrayList<>(orders(8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
        keys.addAll(orders(9, 1));

        try (CassandraStoreAdapter capped =
                CassandraFixtures.openAdapter(Map.of("max-row-tombstones-per-partition", "3"))) {
            DeletePlan plan = capped.planDelete(batch(byOrder, keys));
            DeleteOutcome outcome = capped.executeDelete(plan);

            assertThat(plan.statements()).hasSize(11);
            assertThat(outcome.deleted()).isEqualTo(11);
            assertThat(outcome.tombstones()).isEqualTo(11);
        }
        assertThat(orderIds(8)).isEmpty();
        assertThat(orderIds(9)).isEmpty();
    }

    @Test
    void everyStatementIsBoundToTheCutoffAndNeverInlinesAValue() {
        writeOrders(10, 2, BEFORE);

        DeletePlan plan = adapter.planDelete(batch(spec("order_id"), orders(10, 1, 2)));

        assertThat(plan.statements()).isNotEmpty().allSatisfy(statement -> {
            assertThat(statement.values().get(0)).isEqualTo(CUTOFF.micros());
            assertThat(statement.text()).contains("USING TIMESTAMP ?");
            assertThat(statement.text().substring(statement.text().indexOf(" WHERE ")))
                    .doesNotContainPattern("[0-9]");
        });
        assertThat(plan.statements())
                .extracting(PlannedStatement::values)
                .containsExactly(List.of(CUTOFF.micros(), "10", "1"), List.of(CUTOFF.micros(), "10", "2"));
    }

    private DatasetSpec spec(String identifier) {
        return CassandraFixtures.spec(
                KEYSPACE, table, KeyColumns.of(List.of("customer_id"), List.of("order_id")), identifier);
    }

    private static DeleteBatch batch(DatasetSpec spec, List<Map<String, Object>> keys) {
        return new DeleteBatch(spec, "batch-1", CUTOFF, keys);
    }

    private static List<Map<String, Object>> orders(long customer, int... orderIds) {
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int orderId : orderIds) {
            keys.add(order(customer, orderId));
        }
        return keys;
    }

    private static Map<String, Object> order(long customer, int orderId) {
        return Map.of("customer_id", customer, "order_id", orderId);
    }

    private void writeOrders(long customer, int count, long writeTime) {
        for (int orderId = 1; orderId <= count; orderId++) {
            writeOrder(customer, orderId, "item-" + orderId, writeTime);
        }
    }

    private void writeOrder(long customer, int orderId, String item, long writeTime) {
        direct.execute(direct.prepare("INSERT INTO " + KEYSPACE + "." + table + " (customer_id, order_id, item)"
                        + " VALUES (?, ?, ?) USING TIMESTAMP ?")
                .bind(customer, orderId, item, writeTime));
    }

    private List<Integer> orderIds(long customer) {
        return direct
                .execute(direct.prepare("SELECT order_id FROM " + KEYSPACE + "." + table + " WHERE customer_id = ?")
                        .bind(customer))
                .all()
                .stream()
                .map(row -> row.getInt("order_id"))
                .toList();
    }
}
