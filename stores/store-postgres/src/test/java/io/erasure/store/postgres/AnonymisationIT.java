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
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Anonymisation: clear columns under the cut-off, refuse what cannot be cleared, and restore only what is still clear.
 */
class AnonymisationIT {

    private static final List<String> CLEAR = List.of("email", "phone");
    private static final String ROW =
            "SELECT concat_ws('|', coalesce(email, '-'), coalesce(phone, '-'), name) FROM anon.people"
                    + " WHERE id = ?";

    private static StoreAdapter adapter;
    private DatasetSpec spec;

    @BeforeAll
    static void open() {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS anon");
        adapter = TestDatabase.open(Map.of());
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @BeforeEach
    void people() {
        TestDatabase.execute("DROP TABLE IF EXISTS anon.people");
        TestDatabase.execute(
                "CREATE TABLE anon.people (id bigint PRIMARY KEY, email text, phone text, name text NOT NULL,"
                        + " updated_at timestamptz NOT NULL)");
        spec = TestDatabase.spec("anon", "people", "id", ConditionalColumn.timestamp("updated_at"));
        adapter.checkDataset(spec);
        TestDatabase.execute(
                "INSERT INTO anon.people VALUES (1, 'a@x', '111', 'Ann', ?), (2, 'b@x', NULL, 'Bob', ?),"
                        + " (3, 'c@x', '333', 'Cy', ?), (4, 'd@x', '444', 'Di', ?)",
                BEFORE,
                BEFORE,
                AFTER,
                BEFORE);
    }

    @Test
    void clearsTheColumnsOfRowsAtOrBeforeTheCutoffAndKeepsEverythingElse() {
        DeletePlan plan = adapter.planDelete(anonymise(ids(1, 2, 3, 5)));
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(plan.decisions())
                .extracting(DeletePlan.KeyDecision::action)
                .containsExactly(
                        Action.CLEAR_COLUMNS, Action.CLEAR_COLUMNS, Action.SKIP_WRITTEN_AFTER_CUTOFF, Action.ABSENT);
        assertThat(plan.statements())
                .singleElement()
                .satisfies(s -> assertThat(s.describe())
                        .contains("UPDATE \"anon\".\"people\"")
                        .contains("\"email\" = NULL, \"phone\" = NULL")
                        .doesNotContain("\"updated_at\" =")
                        .contains("\"id\":1")
                        .doesNotContain("\"id\":3"));
        assertThat(outcome).isEqualTo(new DeleteOutcome(2, 1, 1, 0, 1));
        assertThat(row(1)).isEqualTo("-|-|Ann");
        assertThat(row(2)).isEqualTo("-|-|Bob");
        assertThat(row(3)).as("written after the cut-off").isEqualTo("c@x|333|Cy");
        assertThat(row(4)).as("not in the batch").isEqualTo("d@x|444|Di");
        assertThat(TestDatabase.column(OffsetDateTime.class, "SELECT updated_at FROM anon.people WHERE id IN (1, 2)"))
                .as("updated_at is left alone")
                .allSatisfy(at -> assertThat(at.toInstant()).isEqualTo(BEFORE.toInstant()));
    }

    @Test
    void aRowWrittenBetweenPlanAndExecuteKeepsItsValues() {
        DeletePlan plan = adapter.planDelete(anonymise(ids(1, 2)));
        TestDatabase.execute("UPDATE anon.people SET email = 'new@x', updated_at = ? WHERE id = 2", AFTER);

        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(row(1)).isEqualTo("-|-|Ann");
        assertThat(row(2)).isEqualTo("new@x|-|Bob");
    }

    @Test
    void aNotNullColumnIsRefusedWithTheFixAndAcceptedOnceFixed() {
        DeleteBatch clearName = new DeleteBatch(spec, "b-name", CUTOFF, ids(1), List.of("email", "name"));

        assertThatThrownBy(() -> adapter.planDelete(clearName))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("anon.people")
                .hasMessageContaining("column 'name' is NOT NULL")
                .hasMessageContaining("ALTER TABLE anon.people ALTER COLUMN name DROP NOT NULL");
        assertThat(row(1)).isEqualTo("a@x|111|Ann");

        TestDatabase.execute("ALTER TABLE anon.people ALTER COLUMN name DROP NOT NULL");
        DeleteOutcome outcome = adapter.executeDelete(adapter.planDelete(clearName));

        assertThat(outcome.deleted())
                .as("the fixed schema is read again, without a restart")
                .isEqualTo(1);
        assertThat(TestDatabase.count(
                        "SELECT count(*) FROM anon.people WHERE id = 1 AND email IS NULL AND name IS NULL"))
                .isEqualTo(1);
    }

    @Test
    void columnsThatAreMissingOrTheConditionalColumnAreRefused() {
        assertThatThrownBy(() -> adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, ids(1), List.of("fax"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("has no column 'fax' to clear");
        assertThatThrownBy(
                        () -> adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, ids(1), List.of("updated_at"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'updated_at' is the conditional column");
        assertThat(row(1)).isEqualTo("a@x|111|Ann");
    }

    @Test
    void anAbsentKeyIsCountedAbsentAndNothingIsExecuted() {
        DeletePlan plan = adapter.planDelete(anonymise(ids(8, 9)));

        assertThat(plan.statements()).isEmpty();
        assertThat(adapter.executeDelete(plan)).isEqualTo(new DeleteOutcome(0, 0, 2, 0, 0));
    }

    @Test
    void aRestorePutsBackExactlyTheClearedValuesAndNeverOverNewerData() {
        TestDatabase.execute("UPDATE anon.people SET updated_at = ? WHERE id = 3", BEFORE);
        List<DeletionRecord> records = records(ids(1, 2, 3, 4));
        assertThat(records)
                .extracting(r -> r.columns().size())
                .as("only non-null cleared values")
                .containsExactly(2, 1, 2, 2);
        adapter.executeDelete(adapter.planDelete(anonymise(ids(1, 2, 3, 4))));
        TestDatabase.execute("UPDATE anon.people SET name = 'Bobby', updated_at = ? WHERE id = 2", AFTER);
        TestDatabase.execute("UPDATE anon.people SET email = 'again@x' WHERE id = 3");
        TestDatabase.execute("DELETE FROM anon.people WHERE id = 4");

        RestoreOutcome restored = adapter.restore(spec, records);

        assertThat(restored.records())
                .extracting(RecordOutcome::status)
                .containsExactly(Status.RESTORED, Status.NEWER_DATA_KEPT, Status.NEWER_DATA_KEPT, Status.FAILED);
        assertThat(row(1)).isEqualTo("a@x|111|Ann");
        assertThat(row(2)).as("updated after the cut-off").isEqualTo("-|-|Bobby");
        assertThat(row(3))
                .as("a column set again: nothing put back, not even the other one")
                .isEqualTo("again@x|-|Cy");
        assertThat(TestDatabase.count("SELECT count(*) FROM anon.people WHERE id = 4"))
                .as("never re-inserted")
                .isZero();
        assertThat(restored.records().get(3).detail()).contains("deleted after it was anonymised");

        RestoreOutcome again = adapter.restore(spec, records.subList(0, 1));

        assertThat(again.records()).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(Status.NEWER_DATA_KEPT);
            assertThat(r.detail()).startsWith("already restored");
        });
    }

    @Test
    void aRowDeletedAfterItsAnonymisationGetsItsColumnsBackWhenItsDeleteIsRestoredFirst() {
        List<DeletionRecord> anonymised = records(ids(1));
        adapter.executeDelete(adapter.planDelete(anonymise(ids(1))));
        List<DeletionRecord> deleted = Times.records(spec, ids(1), adapter.readRows(spec, ids(1)));
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "b-del", CUTOFF, ids(1))));

        RestoreOutcome restored = adapter.restore(spec, List.of(anonymised.get(0), deleted.get(0)));

        assertThat(restored.records())
                .extracting(RecordOutcome::status)
                .containsExactly(Status.RESTORED, Status.RESTORED);
        assertThat(row(1)).isEqualTo("a@x|111|Ann");
    }

    @Test
    void aVersionGuardedClearRequiresThePlannedVersionAndBumpsIt() {
        TestDatabase.execute("DROP TABLE IF EXISTS anon.versioned");
        TestDatabase.execute("CREATE TABLE anon.versioned (id bigint PRIMARY KEY, email text, version int NOT NULL)");
        DatasetSpec versioned = TestDatabase.spec("anon", "versioned", "id", ConditionalColumn.version("version"));
        adapter.checkDataset(versioned);
        TestDatabase.execute("INSERT INTO anon.versioned VALUES (1, 'a@x', 1), (2, 'b@x', 1)");

        DeletePlan plan = adapter.planDelete(new DeleteBatch(versioned, "b-v", CUTOFF, ids(1, 2), List.of("email")));
        TestDatabase.execute("UPDATE anon.versioned SET email = 'new@x', version = 2 WHERE id = 2");
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(TestDatabase.column(
                        String.class, "SELECT coalesce(email, '-') || '@v' || version FROM anon.versioned ORDER BY id"))
                .containsExactly("-@v2", "new@x@v2");
    }

    private DeleteBatch anonymise(List<Map<String, Object>> keys) {
        return new DeleteBatch(spec, "b-anon", CUTOFF, keys, CLEAR);
    }

    /** Records as the deletion service writes them for an anonymising task: only the non-null values it clears. */
    private List<DeletionRecord> records(List<Map<String, Object>> keys) {
        List<LiveRow> rows = adapter.readRows(spec, keys);
        DeletionTask task = DeletionTask.forward("req-anon", spec, keys, CUTOFF, 0, CLEAR);
        return rows.stream()
                .map(row -> DeletionRecord.of(
                        task,
                        "b-anon",
                        row.key(),
                        row.columns().stream()
                                .filter(c -> CLEAR.contains(c.name()) && c.value() != null)
                                .toList(),
                        Instant.now()))
                .toList();
    }

    private static String row(long id) {
        return TestDatabase.column(String.class, ROW, id).get(0);
    }
}
