package io.erasure.store.postgres;

import static io.erasure.store.postgres.Times.BEFORE;
import static io.erasure.store.postgres.Times.CUTOFF;
import static io.erasure.store.postgres.Times.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreAdapter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rows whose deletes the cut-off cannot guard (a dataset registered with conditional column none, a child table
 * without updated_at) are written between the read for the log and the delete, as they may be during the Kafka
 * acknowledgement, a kill-switch pause or the throttle's wait. The deletion service's order is followed: plan, read
 * (what is logged), then the outside writes, then execute. What was written since is never deleted unlogged.
 */
class ChangedAfterReadIT {

    private static StoreAdapter adapter;
    private static DatasetSpec notes;
    private static DatasetSpec orders;
    private static DatasetSpec folders;

    @BeforeAll
    static void open() {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS gap");
        notes = TestDatabase.spec("gap", "notes", "id", ConditionalColumn.none());
        orders = TestDatabase.spec("gap", "orders", "id", ConditionalColumn.timestamp("updated_at"));
        folders = TestDatabase.spec("gap", "folders", "id", ConditionalColumn.none());
        String child = "hierarchy." + orders.name() + ".child.items.";
        adapter = TestDatabase.open(Map.of(
                child + "table",
                "gap.order_items",
                child + "references",
                "order_id=id",
                "hierarchy." + folders.name() + ".tree.parent-column",
                "parent_id",
                "hierarchy." + folders.name() + ".tree.node-identifier",
                "inherited"));
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @BeforeEach
    void freshTables() {
        TestDatabase.execute("DROP TABLE IF EXISTS gap.notes, gap.order_items, gap.orders, gap.folders");
        TestDatabase.execute(
                "CREATE TABLE gap.folders (id bigint PRIMARY KEY, parent_id bigint REFERENCES gap.folders (id),"
                        + " name text NOT NULL)");
        // two trees: 1 with 2 and 3 under it (3 under 2), 10 with 11 under it
        TestDatabase.execute("INSERT INTO gap.folders VALUES (1, NULL, 'a'), (2, 1, 'b'), (3, 2, 'c'), (10, NULL, 'x'),"
                + " (11, 10, 'y')");
        TestDatabase.execute("CREATE TABLE gap.notes (id bigint PRIMARY KEY, body text NOT NULL, email text)");
        TestDatabase.execute("INSERT INTO gap.notes SELECT i, 'note ' || i, i || '@x' FROM generate_series(1, 5) AS i");
        TestDatabase.execute("CREATE TABLE gap.orders (id bigint PRIMARY KEY, customer text NOT NULL,"
                + " updated_at timestamptz NOT NULL)");
        // no updated_at: the cut-off cannot tell when an item was written
        TestDatabase.execute(
                "CREATE TABLE gap.order_items (order_id bigint NOT NULL REFERENCES gap.orders (id), line int,"
                        + " sku text NOT NULL, PRIMARY KEY (order_id, line))");
        TestDatabase.execute(
                "INSERT INTO gap.orders SELECT i, 'customer-' || i, ? FROM generate_series(1, 3) AS i", BEFORE);
        TestDatabase.execute("INSERT INTO gap.order_items SELECT o, l, 'sku-' || o || '-' || l"
                + " FROM generate_series(1, 3) AS o, generate_series(1, 2) AS l");
        adapter.checkDataset(notes);
        adapter.checkDataset(orders);
        adapter.checkDataset(folders);
    }

    @Test
    void anUnguardedSubtreeNodeChangedOrAddedAfterTheReadKeepsItsWholeTree() {
        DeletePlan plan = adapter.planDelete(new DeleteBatch(folders, "b-1", CUTOFF, ids(1, 10)));
        assertThat(adapter.readRows(folders, ids(1, 10))).hasSize(5);

        TestDatabase.execute("UPDATE gap.folders SET name = 'renamed after the read' WHERE id = 3");
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(TestDatabase.column(Long.class, "SELECT id FROM gap.folders ORDER BY id"))
                .containsExactly(1L, 2L, 3L);
        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);

        DeletePlan again = adapter.planDelete(new DeleteBatch(folders, "b-2", CUTOFF, ids(1)));
        adapter.readRows(folders, ids(1));
        TestDatabase.execute("INSERT INTO gap.folders VALUES (4, 2, 'added after the read')");
        assertThat(adapter.executeDelete(again).skippedNewer()).isEqualTo(1);
        assertThat(TestDatabase.count("SELECT count(*) FROM gap.folders")).isEqualTo(4);
    }

    @Test
    void anUnguardedRowUpdatedOrReplacedAfterTheReadSurvivesAndTheOthersGo() {
        DeletePlan plan = adapter.planDelete(new DeleteBatch(notes, "b-1", CUTOFF, ids(1, 2, 3, 4)));
        List<LiveRow> logged = adapter.readRows(notes, ids(1, 2, 3, 4));
        assertThat(logged).hasSize(4);

        TestDatabase.execute("UPDATE gap.notes SET body = 'edited after the read' WHERE id = 1");
        // the same key and the same values, but another row than the one read
        TestDatabase.execute("DELETE FROM gap.notes WHERE id = 2");
        TestDatabase.execute("INSERT INTO gap.notes VALUES (2, 'note 2', '2@x')");
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(TestDatabase.column(String.class, "SELECT body FROM gap.notes ORDER BY id"))
                .containsExactly("edited after the read", "note 2", "note 5");
        assertThat(outcome.deleted()).isEqualTo(2);
        assertThat(outcome.skippedNewer()).isEqualTo(2);
    }

    @Test
    void aRowChangedBetweenPlanAndReadIsKeptToo() {
        DeletePlan plan = adapter.planDelete(new DeleteBatch(notes, "b-1", CUTOFF, ids(1, 3)));
        TestDatabase.execute("UPDATE gap.notes SET body = 'edited before the read' WHERE id = 1");
        adapter.readRows(notes, ids(1, 3));

        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(TestDatabase.column(Long.class, "SELECT id FROM gap.notes ORDER BY id"))
                .containsExactly(1L, 2L, 4L, 5L);
        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
    }

    @Test
    void aChildWithoutUpdatedAtChangedOrAddedAfterTheReadKeepsItsParentAndAllItsSiblings() {
        DeletePlan plan = adapter.planDelete(new DeleteBatch(orders, "b-1", CUTOFF, ids(1, 2, 3)));
        assertThat(adapter.readRows(orders, ids(1, 2, 3))).hasSize(3 + 6);

        TestDatabase.execute(
                "UPDATE gap.order_items SET sku = 'changed after the read' WHERE order_id = 1 AND line = 2");
        TestDatabase.execute("INSERT INTO gap.order_items VALUES (2, 9, 'added after the read')");
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(TestDatabase.column(Long.class, "SELECT id FROM gap.orders ORDER BY id"))
                .containsExactly(1L, 2L);
        assertThat(TestDatabase.column(String.class, "SELECT sku FROM gap.order_items ORDER BY order_id, line"))
                .containsExactly("sku-1-1", "changed after the read", "sku-2-1", "sku-2-2", "added after the read");
        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(2);
    }

    @Test
    void anUnguardedValueWrittenAfterTheReadIsNotClearedByAnAnonymisation() {
        DeletePlan plan = adapter.planDelete(new DeleteBatch(notes, "b-1", CUTOFF, ids(1, 2), List.of("email")));
        assertThat(adapter.readRows(notes, ids(1, 2))).hasSize(2);

        TestDatabase.execute("UPDATE gap.notes SET email = 'new@x' WHERE id = 1");
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(TestDatabase.column(
                        String.class, "SELECT coalesce(email, '-') FROM gap.notes WHERE id IN (1, 2) ORDER BY id"))
                .containsExactly("new@x", "-");
        assertThat(outcome.deleted()).as("cleared").isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
    }
}
