package io.erasure.store.postgres;

import static io.erasure.store.postgres.Times.AFTER;
import static io.erasure.store.postgres.Times.BEFORE;
import static io.erasure.store.postgres.Times.CUTOFF;
import static io.erasure.store.postgres.Times.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A 300-level tree under node 1 (a chain 1 → 2 → ... → 300, each node with a leaf 1000+i), hung under node 0,
 * next to nodes that are not in the subtree: 0 itself, and 15000 (child of 0, whose path '/0/15000/' a naive
 * {@code LIKE '/0/1%'} would match). Deleting key 1 removes exactly the 600 subtree rows, in both tree modes.
 */
class TreeDeleteIT {

    private static final int DEPTH = 300;

    private static StoreAdapter adapter;
    private static DatasetSpec recursive;
    private static DatasetSpec path;

    @BeforeAll
    static void open() {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS tree");
        recursive = TestDatabase.spec("tree", "by_parent", "id", ConditionalColumn.timestamp("updated_at"));
        path = TestDatabase.spec("tree", "by_path", "id", ConditionalColumn.timestamp("updated_at"));
        // the identifier column is the node's own id: the nodes under a key belong to it
        adapter = TestDatabase.open(Map.of(
                "hierarchy." + recursive.name() + ".tree.parent-column", "parent_id",
                "hierarchy." + recursive.name() + ".tree.node-identifier", "inherited",
                "hierarchy." + path.name() + ".tree.path-column", "path",
                "hierarchy." + path.name() + ".tree.node-identifier", "inherited"));
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @BeforeEach
    void freshTrees() {
        TestDatabase.execute("DROP TABLE IF EXISTS tree.by_parent");
        TestDatabase.execute(
                "CREATE TABLE tree.by_parent (id bigint PRIMARY KEY, parent_id bigint REFERENCES tree.by_parent (id),"
                        + " label text, updated_at timestamptz NOT NULL)");
        TestDatabase.execute("CREATE INDEX ON tree.by_parent (parent_id)");
        TestDatabase.execute(
                "INSERT INTO tree.by_parent VALUES (0, NULL, 'outside', ?), (15000, 0, 'outside', ?)", BEFORE, BEFORE);
        TestDatabase.execute(
                "INSERT INTO tree.by_parent SELECT i, i - 1, 'node ' || i, ? FROM generate_series(1, ?) AS i",
                BEFORE,
                DEPTH);
        TestDatabase.execute(
                "INSERT INTO tree.by_parent SELECT 1000 + i, i, 'leaf ' || i, ? FROM generate_series(1, ?) AS i",
                BEFORE,
                DEPTH);

        TestDatabase.execute("DROP TABLE IF EXISTS tree.by_path");
        TestDatabase.execute("CREATE TABLE tree.by_path (id bigint PRIMARY KEY, path text NOT NULL, label text,"
                + " updated_at timestamptz NOT NULL)");
        TestDatabase.execute("CREATE INDEX ON tree.by_path (path text_pattern_ops)");
        TestDatabase.execute(
                "INSERT INTO tree.by_path VALUES (0, '/0/', 'outside', ?), (15000, '/0/15000/', 'outside', ?)",
                BEFORE,
                BEFORE);
        TestDatabase.execute(
                "INSERT INTO tree.by_path SELECT i, '/0/' || (SELECT string_agg(j::text, '/' ORDER BY j)"
                        + " FROM generate_series(1, i) AS j) || '/', 'node ' || i, ? FROM generate_series(1, ?) AS i",
                BEFORE,
                DEPTH);
        TestDatabase.execute(
                "INSERT INTO tree.by_path SELECT 1000 + i, p.path || (1000 + i) || '/', 'leaf ' || i, ?"
                        + " FROM generate_series(1, ?) AS i JOIN tree.by_path AS p ON p.id = i",
                BEFORE,
                DEPTH);
        adapter.checkDataset(recursive);
        adapter.checkDataset(path);
    }

    @Test
    void aRecursiveTreeOf300LevelsIsDeletedWholeAndNothingElse() {
        assertWholeSubtreeDeleted(recursive);
    }

    @Test
    void aMaterializedPathTreeOf300LevelsIsDeletedWholeAndNothingElse() {
        assertThat(TestDatabase.column(String.class, "SELECT path FROM tree.by_path WHERE id = 300")
                        .get(0))
                .hasSizeGreaterThan(1000);
        assertWholeSubtreeDeleted(path);
    }

    @Test
    void aSubtreeRowWrittenAfterTheCutoffKeepsTheWholeSubtree() {
        for (DatasetSpec spec : List.of(recursive, path)) {
            TestDatabase.execute("UPDATE " + spec.quotedTable() + " SET updated_at = ? WHERE id = 1250", AFTER);

            DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, ids(1)));
            DeleteOutcome outcome = adapter.executeDelete(plan);

            assertThat(plan.count(DeletePlan.Action.SKIP_WRITTEN_AFTER_CUTOFF)).isEqualTo(1);
            assertThat(outcome.deleted()).isZero();
            assertThat(outcome.skippedNewer()).isEqualTo(1);
            assertThat(TestDatabase.count("SELECT count(*) FROM " + spec.quotedTable()))
                    .isEqualTo(2 + 2 * DEPTH);
        }
    }

    @Test
    void aMalformedPathIsNeverDeletedAndCannotMatchTheWholeTable() {
        TestDatabase.execute("UPDATE tree.by_path SET path = '' WHERE id = 1");

        DeleteOutcome outcome = adapter.executeDelete(adapter.planDelete(new DeleteBatch(path, "b-1", CUTOFF, ids(1))));

        assertThat(outcome.deleted()).isZero();
        assertThat(TestDatabase.count("SELECT count(*) FROM tree.by_path")).isEqualTo(2 + 2 * DEPTH);
    }

    private void assertWholeSubtreeDeleted(DatasetSpec spec) {
        List<LiveRow> rows = adapter.readRows(spec, ids(1));
        assertThat(rows).as("the whole subtree is read for the log first").hasSize(2 * DEPTH);
        assertThat(rows.get(0).key()).isEqualTo(Map.of("id", 1L));
        List<DeletionRecord> records = Times.records(spec, ids(1), rows);

        DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, ids(1)));
        assertThat(TestDatabase.count("SELECT count(*) FROM " + spec.quotedTable()))
                .as("planning deletes nothing")
                .isEqualTo(2 + 2 * DEPTH);
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(TestDatabase.column(Long.class, "SELECT id FROM " + spec.quotedTable() + " ORDER BY id"))
                .containsExactly(0L, 15000L);

        // restored from the log in the worst order (deepest first): parents still go in first
        List<DeletionRecord> reversed = new ArrayList<>(records);
        Collections.reverse(reversed);
        RestoreOutcome restored = adapter.restore(spec, reversed);
        assertThat(restored.count(RestoreOutcome.Status.RESTORED)).isEqualTo(2 * DEPTH);
        assertThat(TestDatabase.count("SELECT count(*) FROM " + spec.quotedTable()))
                .isEqualTo(2 + 2 * DEPTH);
        assertThat(TestDatabase.column(String.class, "SELECT label FROM " + spec.quotedTable() + " WHERE id = 1300"))
                .containsExactly("leaf 300");
    }
}
