package io.erasure.store.postgres.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.store.postgres.TestDatabase;
import io.erasure.store.postgres.schema.ColumnInfo;
import io.erasure.store.postgres.schema.CutoffGuard;
import io.erasure.store.postgres.schema.DatasetShape;
import io.erasure.store.postgres.schema.TableSchema;
import io.erasure.store.postgres.tree.ChildTable;
import io.erasure.store.postgres.tree.TreeShape;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The statement texts, without a database: quoted identifiers, bound values, the guard in every delete. */
class DatasetSqlTest {

    private static final ColumnInfo ID = new ColumnInfo("id", "int8", false, false);
    private static final ColumnInfo UPDATED_AT = new ColumnInfo("updated_at", "timestamptz", false, false);

    @Test
    void aFlatDeleteBindsTheKeysAndTheCutoffAndIsGuarded() {
        DatasetSql sql = new DatasetSql(shape(Optional.empty(), List.of()));

        assertThat(sql.deleteStatement())
                .contains("DELETE FROM \"shop\".\"orders\" AS t USING doomed AS d WHERE (t.\"id\") = (d.\"id\")"
                        + " AND (t.xmin::text::bigint) = d.row_xmin AND t.\"updated_at\" <= (SELECT at FROM cutoff)")
                .contains("jsonb_populate_record(NULL::\"shop\".\"orders\", e.doc)");
        // the keys, the cut-off, the row versions and the schema version planned at
        assertThat(placeholders(sql.deleteStatement())).isEqualTo(4);
        assertThat(placeholders(sql.planQuery())).isEqualTo(2);
        assertThat(placeholders(sql.readQuery())).isEqualTo(1);
        assertThat(sql.planQuery()).doesNotContain("DELETE");
    }

    @Test
    void aTreeWithChildrenDeletesChildrenGuardedByTheirOwnColumn() {
        ChildTable items = new ChildTable("shop", "order_items", Map.of("order_id", "id"), Optional.of("changed_at"));
        TableSchema itemsTable = new TableSchema(
                "shop",
                "order_items",
                List.of(
                        new ColumnInfo("order_id", "int8", false, false),
                        new ColumnInfo("line", "int4", false, false),
                        new ColumnInfo("changed_at", "timestamp", false, false)),
                List.of("order_id", "line"),
                List.of());
        DatasetShape shape = shape(
                Optional.of(TreeShape.materializedPath("path")),
                List.of(new DatasetShape.Child(
                        items,
                        itemsTable,
                        CutoffGuard.updatedAt(itemsTable.column("changed_at").orElseThrow()))));

        String delete = new DatasetSql(shape).deleteStatement();

        assertThat(delete)
                .contains("starts_with(c.\"path\", r.node_path)")
                .contains(
                        "DELETE FROM \"shop\".\"order_items\" AS c USING dep_0 AS d WHERE (c.\"order_id\", c.\"line\")"
                                + " = (d.\"order_id\", d.\"line\") AND (c.xmin::text::bigint) = d.row_xmin")
                .contains(" AND c.\"changed_at\" <= ((SELECT at FROM cutoff) AT TIME ZONE 'UTC')");
        assertThat(placeholders(delete)).isEqualTo(4);
    }

    @Test
    void restoresNameEveryWritableColumnAndNeverOverwrite() {
        TableSchema table = new TableSchema(
                "shop",
                "orders",
                List.of(
                        ID,
                        new ColumnInfo("total", "numeric", false, false),
                        new ColumnInfo("total_with_tax", "numeric", true, false),
                        UPDATED_AT),
                List.of("id"),
                List.of());

        assertThat(DatasetSql.restoreStatement(table))
                .isEqualTo("INSERT INTO \"shop\".\"orders\" (\"id\", \"total\","
                        + " \"updated_at\") SELECT r.\"id\", r.\"total\", r.\"updated_at\" FROM jsonb_populate_record("
                        + "NULL::\"shop\".\"orders\", CAST(? AS jsonb)) AS r ON CONFLICT (\"id\") DO NOTHING");
    }

    private static DatasetShape shape(Optional<TreeShape> tree, List<DatasetShape.Child> children) {
        List<ColumnInfo> columns = tree.isPresent()
                ? List.of(ID, new ColumnInfo("path", "text", false, false), UPDATED_AT)
                : List.of(ID, UPDATED_AT);
        return new DatasetShape(
                TestDatabase.spec("shop", "orders", "id", ConditionalColumn.timestamp("updated_at")),
                new TableSchema("shop", "orders", columns, List.of("id"), List.of()),
                CutoffGuard.updatedAt(UPDATED_AT),
                tree,
                children);
    }

    private static long placeholders(String sql) {
        return sql.chars().filter(c -> c == '?').count();
    }
}
