package io.erasure.store.postgres;

import static io.erasure.store.postgres.Times.BEFORE;
import static io.erasure.store.postgres.Times.CUTOFF;
import static io.erasure.store.postgres.Times.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The schema a long-running adapter checked once changes under it: a cascading foreign key or a column is added, a
 * column is renamed. The adapter notices at its next call (not at its next restart), refuses what the first check
 * would have refused, and logs and restores what the table holds now.
 */
class SchemaChangesIT {

    private static StoreAdapter adapter;
    private static DatasetSpec accounts;
    private static DatasetSpec carts;

    @BeforeAll
    static void open() {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS drift");
        accounts = TestDatabase.spec("drift", "accounts", "id", ConditionalColumn.timestamp("updated_at"));
        carts = TestDatabase.spec("drift", "carts", "id", ConditionalColumn.timestamp("updated_at"));
        String child = "hierarchy." + carts.name() + ".child.lines.";
        adapter = TestDatabase.open(Map.of(
                child + "table",
                "drift.cart_lines",
                child + "references",
                "cart_id=id",
                child + "updated-at",
                "updated_at"));
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @BeforeEach
    void freshTable() {
        TestDatabase.execute("DROP TABLE IF EXISTS drift.sessions, drift.accounts");
        TestDatabase.execute("CREATE TABLE drift.accounts (id bigint PRIMARY KEY, name text NOT NULL,"
                + " updated_at timestamptz NOT NULL)");
        TestDatabase.execute(
                "INSERT INTO drift.accounts SELECT i, 'account-' || i, ? FROM generate_series(1, 4) AS i", BEFORE);
        adapter.checkDataset(accounts);
        // the adapter has used the dataset: whatever it learnt about the schema, it learnt it now
        DeleteOutcome first =
                adapter.executeDelete(adapter.planDelete(new DeleteBatch(accounts, "b-0", CUTOFF, ids(4))));
        assertThat(first.deleted()).isEqualTo(1);
    }

    @Test
    void aCascadingForeignKeyAddedAfterTheFirstCheckIsRefusedAtTheNextDelete() {
        TestDatabase.execute(
                "CREATE TABLE drift.sessions (id bigint PRIMARY KEY, account_id bigint REFERENCES drift.accounts (id)"
                        + " ON DELETE CASCADE)");
        TestDatabase.execute("INSERT INTO drift.sessions VALUES (10, 1), (20, 2)");

        assertThatThrownBy(() -> adapter.planDelete(new DeleteBatch(accounts, "b-1", CUTOFF, ids(1))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("drift.sessions")
                .hasMessageContaining("ON DELETE CASCADE")
                .hasMessageContaining("never logged");
        assertThat(TestDatabase.count("SELECT count(*) FROM drift.sessions")).isEqualTo(2);
        assertThat(TestDatabase.count("SELECT count(*) FROM drift.accounts")).isEqualTo(3);
    }

    @Test
    void aCascadingForeignKeyAddedBetweenPlanAndDeleteStopsTheDelete() {
        DeletePlan plan = adapter.planDelete(new DeleteBatch(accounts, "b-1", CUTOFF, ids(1, 2)));
        adapter.readRows(accounts, ids(1, 2));
        TestDatabase.execute(
                "CREATE TABLE drift.sessions (id bigint PRIMARY KEY, account_id bigint REFERENCES drift.accounts (id)"
                        + " ON DELETE CASCADE)");
        TestDatabase.execute("INSERT INTO drift.sessions VALUES (10, 1), (20, 2)");

        assertThatThrownBy(() -> adapter.executeDelete(plan))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("drift.sessions")
                .hasMessageContaining("ON DELETE CASCADE");
        assertThat(TestDatabase.count("SELECT count(*) FROM drift.sessions")).isEqualTo(2);
        assertThat(TestDatabase.count("SELECT count(*) FROM drift.accounts")).isEqualTo(3);
    }

    @Test
    void aCascadingForeignKeyOntoAChildTableAddedLaterIsRefusedToo() {
        TestDatabase.execute("DROP TABLE IF EXISTS drift.line_notes, drift.cart_lines, drift.carts");
        TestDatabase.execute("CREATE TABLE drift.carts (id bigint PRIMARY KEY, updated_at timestamptz NOT NULL)");
        TestDatabase.execute("CREATE TABLE drift.cart_lines (cart_id bigint REFERENCES drift.carts (id), line int,"
                + " updated_at timestamptz NOT NULL, PRIMARY KEY (cart_id, line))");
        TestDatabase.execute("INSERT INTO drift.carts VALUES (1, ?), (2, ?)", BEFORE, BEFORE);
        TestDatabase.execute("INSERT INTO drift.cart_lines VALUES (1, 1, ?), (2, 1, ?)", BEFORE, BEFORE);
        adapter.checkDataset(carts);
        assertThat(adapter.executeDelete(adapter.planDelete(new DeleteBatch(carts, "b-0", CUTOFF, ids(2))))
                        .deleted())
                .isEqualTo(1);

        TestDatabase.execute("CREATE TABLE drift.line_notes (id bigint PRIMARY KEY, cart_id bigint, line int,"
                + " FOREIGN KEY (cart_id, line) REFERENCES drift.cart_lines ON DELETE CASCADE)");
        TestDatabase.execute("INSERT INTO drift.line_notes VALUES (7, 1, 1)");

        assertThatThrownBy(() -> adapter.planDelete(new DeleteBatch(carts, "b-1", CUTOFF, ids(1))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("child table drift.cart_lines is referenced by drift.line_notes")
                .hasMessageContaining("ON DELETE CASCADE");
        assertThat(TestDatabase.count("SELECT count(*) FROM drift.line_notes")).isEqualTo(1);
        TestDatabase.execute("DROP TABLE drift.line_notes, drift.cart_lines, drift.carts");
    }

    @Test
    void aColumnAddedAfterFirstUseIsLoggedAndRestored() {
        TestDatabase.execute("ALTER TABLE drift.accounts ADD COLUMN nickname text");
        TestDatabase.execute("UPDATE drift.accounts SET nickname = 'Bo' WHERE id = 1");

        DeletePlan plan = adapter.planDelete(new DeleteBatch(accounts, "b-1", CUTOFF, ids(1)));
        List<LiveRow> rows = adapter.readRows(accounts, ids(1));
        List<DeletionRecord> records = Times.records(accounts, ids(1), rows);
        DeleteOutcome outcome = adapter.executeDelete(plan);
        RestoreOutcome restored = adapter.restore(accounts, records);

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(restored.count(RestoreOutcome.Status.RESTORED)).isEqualTo(1);
        assertThat(TestDatabase.column(String.class, "SELECT nickname FROM drift.accounts WHERE id = 1"))
                .containsExactly("Bo");
    }

    @Test
    void aColumnAddedBetweenReadAndDeleteMakesTheBatchPlanAgain() {
        DeletePlan plan = adapter.planDelete(new DeleteBatch(accounts, "b-1", CUTOFF, ids(1)));
        adapter.readRows(accounts, ids(1));
        // a default fills the column without rewriting the row: the row read for the log lacks its value
        TestDatabase.execute("ALTER TABLE drift.accounts ADD COLUMN plan text NOT NULL DEFAULT 'gold'");

        assertThatThrownBy(() -> adapter.executeDelete(plan))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("changed since the batch was planned");
        assertThat(TestDatabase.count("SELECT count(*) FROM drift.accounts WHERE id = 1"))
                .isEqualTo(1);

        DeletePlan again = adapter.planDelete(new DeleteBatch(accounts, "b-1", CUTOFF, ids(1)));
        assertThat(adapter.readRows(accounts, ids(1)).get(0).columns()).anySatisfy(c -> {
            assertThat(c.name()).isEqualTo("plan");
            assertThat(c.value()).isEqualTo("gold");
        });
        assertThat(adapter.executeDelete(again).deleted()).isEqualTo(1);
    }

    @Test
    void aRenamedConditionalColumnIsRefusedWithTheFixNotWithAnSqlError() {
        TestDatabase.execute("ALTER TABLE drift.accounts RENAME COLUMN updated_at TO changed_at");

        assertThatThrownBy(() -> adapter.planDelete(new DeleteBatch(accounts, "b-1", CUTOFF, ids(1))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("has no column 'updated_at' (conditionalColumn)");
        assertThat(TestDatabase.count("SELECT count(*) FROM drift.accounts")).isEqualTo(3);
    }
}
