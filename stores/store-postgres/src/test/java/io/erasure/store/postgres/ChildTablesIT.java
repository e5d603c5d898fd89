package io.erasure.store.postgres;

import static io.erasure.store.postgres.Times.AFTER;
import static io.erasure.store.postgres.Times.BEFORE;
import static io.erasure.store.postgres.Times.CUTOFF;
import static io.erasure.store.postgres.Times.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.postgres.tree.Hierarchy;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Orders with their order items (a child table with a plain foreign key): logged, deleted and restored together. */
class ChildTablesIT {

    private static StoreAdapter adapter;
    private static DatasetSpec orders;

    @BeforeAll
    static void open() {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS shop");
        orders = TestDatabase.spec("shop", "orders", "id", ConditionalColumn.timestamp("updated_at"));
        String child = "hierarchy." + orders.name() + ".child.items.";
        adapter = TestDatabase.open(Map.of(
                child + "table",
                "shop.order_items",
                child + "references",
                "order_id=id",
                child + "updated-at",
                "updated_at"));
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @BeforeEach
    void freshTables() {
        TestDatabase.execute("DROP TABLE IF EXISTS shop.payments, shop.order_items, shop.orders");
        TestDatabase.execute(
                "CREATE TABLE shop.orders (id bigint PRIMARY KEY, customer text NOT NULL, total numeric(10, 2),"
                        + " updated_at timestamptz NOT NULL)");
        TestDatabase.execute("CREATE TABLE shop.order_items (order_id bigint NOT NULL REFERENCES shop.orders (id),"
                + " line int, sku text, photo bytea, updated_at timestamptz NOT NULL, PRIMARY KEY (order_id, line))");
        TestDatabase.execute(
                "INSERT INTO shop.orders SELECT i, 'customer-' || i, i * 10.50, ? FROM generate_series(1, 3) AS i",
                BEFORE);
        TestDatabase.execute(
                "INSERT INTO shop.order_items SELECT o, l, 'sku-' || o || '-' || l, '\\x00ff'::bytea, ?"
                        + " FROM generate_series(1, 3) AS o, generate_series(1, 4) AS l",
                BEFORE);
        adapter.checkDataset(orders);
    }

    @Test
    void anOrderGoesWithItsItemsAndEveryRowIsReadForTheLogFirst() {
        List<LiveRow> rows = adapter.readRows(orders, ids(1, 2));

        assertThat(rows).hasSize(2 + 8);
        assertThat(rows)
                .filteredOn(r -> r.key().containsKey(Hierarchy.TABLE_MARKER))
                .hasSize(8)
                .allSatisfy(r -> assertThat(r.key())
                        .containsEntry(Hierarchy.TABLE_MARKER, "shop.order_items")
                        .containsKeys("order_id", "line"))
                .allSatisfy(r -> assertThat(r.lastWriteMicros()).isEqualTo(CUTOFF.micros() - 3_000_000_000L));
        assertThat(rows.get(0).columns())
                .extracting(c -> c.name())
                .containsExactly("id", "customer", "total", "updated_at");
        assertThat(rows)
                .filteredOn(r -> r.key().containsKey(Hierarchy.TABLE_MARKER))
                .first()
                .satisfies(r -> assertThat(r.columns()).anySatisfy(c -> {
                    assertThat(c.name()).isEqualTo("photo");
                    assertThat(c.value()).as("bytea travels as base64").isEqualTo("AP8=");
                }));

        DeleteOutcome outcome =
                adapter.executeDelete(adapter.planDelete(new DeleteBatch(orders, "b-1", CUTOFF, ids(1, 2))));

        assertThat(outcome.deleted()).isEqualTo(2);
        assertThat(TestDatabase.column(Long.class, "SELECT id FROM shop.orders ORDER BY id"))
                .containsExactly(3L);
        assertThat(TestDatabase.column(Long.class, "SELECT DISTINCT order_id FROM shop.order_items"))
                .containsExactly(3L);
    }

    @Test
    void recordsGivenChildrenFirstAreRestoredParentsFirst() {
        List<LiveRow> rows = adapter.readRows(orders, ids(1));
        List<DeletionRecord> records = new ArrayList<>(Times.records(orders, ids(1), rows));
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(orders, "b-1", CUTOFF, ids(1))));
        Collections.reverse(records);

        RestoreOutcome restored = adapter.restore(orders, records);

        assertThat(restored.count(Status.RESTORED)).isEqualTo(5);
        assertThat(TestDatabase.column(String.class, "SELECT total::text FROM shop.orders WHERE id = 1"))
                .containsExactly("10.50");
        assertThat(TestDatabase.column(
                        String.class, "SELECT encode(photo, 'hex') FROM shop.order_items WHERE order_id = 1"))
                .hasSize(4)
                .containsOnly("00ff");
    }

    @Test
    void anItemWrittenAfterTheCutoffKeepsItsOrderAndAllItsItems() {
        TestDatabase.execute("UPDATE shop.order_items SET updated_at = ? WHERE order_id = 2 AND line = 3", AFTER);

        DeleteOutcome outcome =
                adapter.executeDelete(adapter.planDelete(new DeleteBatch(orders, "b-1", CUTOFF, ids(1, 2))));

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(TestDatabase.count("SELECT count(*) FROM shop.order_items WHERE order_id = 2"))
                .isEqualTo(4);
    }

    @Test
    void aRestoreReportsEveryConflictAndEveryRefusal() {
        List<LiveRow> rows = adapter.readRows(orders, ids(1));
        List<DeletionRecord> records = Times.records(orders, ids(1), rows);
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(orders, "b-1", CUTOFF, ids(1))));
        TestDatabase.execute("INSERT INTO shop.orders VALUES (1, 'someone new', 1.00, ?)", AFTER);

        List<RecordOutcome> first = adapter.restore(orders, records).records();

        assertThat(first.get(0).status()).isEqualTo(Status.NEWER_DATA_KEPT);
        assertThat(first.get(0).detail()).contains("written after the delete");
        assertThat(TestDatabase.column(String.class, "SELECT customer FROM shop.orders WHERE id = 1"))
                .containsExactly("someone new");
        assertThat(first.subList(1, 5)).extracting(RecordOutcome::status).containsOnly(Status.RESTORED);

        List<RecordOutcome> again = adapter.restore(orders, records).records();
        assertThat(again.subList(1, 5)).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(Status.NEWER_DATA_KEPT);
            assertThat(r.detail()).startsWith("already restored");
        });

        // items whose order is not back (yet): reported as waiting for their parent, with PostgreSQL's refusal
        List<DeletionRecord> items2 = Times.records(orders, ids(2), adapter.readRows(orders, ids(2)));
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(orders, "b-2", CUTOFF, ids(2))));
        RestoreOutcome orphans = adapter.restore(orders, items2.subList(1, 5));
        assertThat(orphans.records()).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(Status.PARENT_MISSING);
            assertThat(r.detail()).contains("foreign key");
        });
        // the order's record in a later call: the order goes in, and then its items do
        assertThat(adapter.restore(orders, items2.subList(0, 1)).records())
                .extracting(RecordOutcome::status)
                .containsExactly(Status.RESTORED);
        assertThat(adapter.restore(orders, items2.subList(1, 5)).records())
                .extracting(RecordOutcome::status)
                .containsOnly(Status.RESTORED);
    }

    @Test
    void aTableReferencingTheDatasetThatIsNotDeclaredIsRefused() {
        TestDatabase.execute(
                "CREATE TABLE shop.payments (id bigint PRIMARY KEY, order_id bigint REFERENCES shop.orders (id)"
                        + " ON DELETE CASCADE)");

        assertThatThrownBy(() -> adapter.checkDataset(orders))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("shop.payments")
                .hasMessageContaining("ON DELETE CASCADE")
                .hasMessageContaining("never logged")
                .hasMessageContaining("hierarchy." + orders.name() + ".child.<name>");
    }
}
