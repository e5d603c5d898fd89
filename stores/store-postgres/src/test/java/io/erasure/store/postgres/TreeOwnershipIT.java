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
import org.junit.jupiter.api.Test;

/**
 * A comment thread whose rows each carry their author ({@code owner}, the dataset's identifier column): alice's
 * comment 1 has her reply 2 (with her reply 6 under it) and bob's reply 3, under which hang alice's 4 and a row
 * without an author (5). Deleting alice's comment 1 removes her rows 1, 2 and 6, and keeps bob's 3 with everything
 * under it, counted; with a foreign key onto the table itself, removing 1 would cascade into (or fail on) bob's 3,
 * so comment 1 is kept whole.
 */
class TreeOwnershipIT {

    private static StoreAdapter adapter;
    private static DatasetSpec byParent;
    private static DatasetSpec byPath;
    private static DatasetSpec withForeignKey;

    @BeforeAll
    static void open() {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS owned");
        byParent = owned("by_parent");
        byPath = owned("by_path");
        withForeignKey = owned("with_fk");
        adapter = TestDatabase.open(Map.of(
                "hierarchy." + byParent.name() + ".tree.parent-column", "parent_id",
                "hierarchy." + byPath.name() + ".tree.path-column", "path",
                "hierarchy." + withForeignKey.name() + ".tree.parent-column", "parent_id"));
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Test
    void aRecursiveSubtreeDeleteKeepsTheNodesOfOtherIdentifiersAndWhatHangsUnderThem() {
        thread("by_parent", "");
        assertOnlyAlicesRowsGo(byParent);
    }

    @Test
    void aMaterializedPathSubtreeDeleteKeepsTheNodesOfOtherIdentifiersAndWhatHangsUnderThem() {
        thread("by_path", "");
        assertOnlyAlicesRowsGo(byPath);
    }

    @Test
    void aForeignKeyOntoTheTreeKeepsTheWholeKeyRatherThanCascadeIntoAnotherIdentifiersNode() {
        thread("with_fk", " REFERENCES owned.with_fk (id) ON DELETE CASCADE");

        DeletePlan plan = adapter.planDelete(new DeleteBatch(withForeignKey, "b-1", CUTOFF, ids(1)));
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(outcome.deleted()).isZero();
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(TestDatabase.count("SELECT count(*) FROM owned.with_fk")).isEqualTo(7);
        assertThat(plan.warnings())
                .singleElement()
                .asString()
                .contains("1 key(s) kept whole")
                .contains("owned.with_fk")
                .contains("tree.node-identifier");
    }

    private void assertOnlyAlicesRowsGo(DatasetSpec spec) {
        DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, ids(1)));
        List<LiveRow> logged = adapter.readRows(spec, ids(1));
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(logged)
                .extracting(row -> ((Number) row.key().get("id")).longValue())
                .containsExactlyInAnyOrder(1L, 2L, 6L);
        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(TestDatabase.column(Long.class, "SELECT id FROM " + spec.quotedTable() + " ORDER BY id"))
                .containsExactly(3L, 4L, 5L, 100L);
        assertThat(plan.warnings())
                .singleElement()
                .asString()
                .contains("1 tree node(s) of other identifiers")
                .contains("kept");
    }

    private static DatasetSpec owned(String table) {
        return TestDatabase.spec("owned", table, "id", ConditionalColumn.timestamp("updated_at")).toBuilder()
                .identifierColumn("owner")
                .build();
    }

    /** The thread, plus bob's unrelated comment 100. */
    private static void thread(String table, String parentReference) {
        String quoted = "owned." + table;
        TestDatabase.execute("DROP TABLE IF EXISTS " + quoted);
        TestDatabase.execute("CREATE TABLE " + quoted + " (id bigint PRIMARY KEY, parent_id bigint" + parentReference
                + ", path text NOT NULL, owner text, body text, updated_at timestamptz NOT NULL)");
        TestDatabase.execute(
                "INSERT INTO " + quoted + " VALUES"
                        + " (1, NULL, '/1/', 'alice', 'hello', ?), (2, 1, '/1/2/', 'alice', 'me again', ?),"
                        + " (6, 2, '/1/2/6/', 'alice', 'and again', ?), (3, 1, '/1/3/', 'bob', 'hi alice', ?),"
                        + " (4, 3, '/1/3/4/', 'alice', 'hi bob', ?), (5, 3, '/1/3/5/', NULL, 'a bot', ?),"
                        + " (100, NULL, '/100/', 'bob', 'elsewhere', ?)",
                BEFORE,
                BEFORE,
                BEFORE,
                BEFORE,
                BEFORE,
                BEFORE,
                BEFORE);
    }
}
