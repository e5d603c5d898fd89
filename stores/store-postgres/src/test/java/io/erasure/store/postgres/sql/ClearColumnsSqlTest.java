package io.erasure.store.postgres.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.store.postgres.TestDatabase;
import io.erasure.store.postgres.schema.ClearableColumns;
import io.erasure.store.postgres.schema.ColumnInfo;
import io.erasure.store.postgres.schema.CutoffGuard;
import io.erasure.store.postgres.schema.DatasetShape;
import io.erasure.store.postgres.schema.TableSchema;
import io.erasure.store.postgres.tree.TreeShape;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Anonymisation and lookup statements and column refusals, without a database. */
class ClearColumnsSqlTest {

    private static final ColumnInfo ID = new ColumnInfo("id", "int8", false, false, true);
    private static final ColumnInfo EMAIL = new ColumnInfo("email", "text", false, false, false);
    private static final ColumnInfo NAME = new ColumnInfo("name", "text", false, false, true);
    private static final ColumnInfo PARENT = new ColumnInfo("parent", "int8", false, false, false);
    private static final ColumnInfo UPDATED_AT = new ColumnInfo("updated_at", "timestamp", false, false, false);
    private static final ColumnInfo VERSION = new ColumnInfo("version", "int4", false, false, true);

    @Test
    void aClearIsGuardedLikeADeleteAndLeavesUpdatedAtAlone() {
        ClearColumnsSql sql = new DatasetSql(shape(CutoffGuard.updatedAt(UPDATED_AT), Optional.empty())).clearing();

        String clear = sql.clearStatement(List.of("email"));

        assertThat(clear)
                .contains("UPDATE \"shop\".\"people\" AS t SET \"email\" = NULL FROM keys AS k JOIN planned AS p"
                        + " ON p.ord = k.ord WHERE (t.\"id\") = (k.\"id\") AND md5(t.xmin::text) = p.digest"
                        + " AND t.\"updated_at\" <= ((SELECT at FROM cutoff) AT TIME ZONE 'UTC') RETURNING k.ord");
        assertThat(clear).doesNotContain("\"updated_at\" =");
        // the keys, the cut-off, the row versions planned
        assertThat(placeholders(clear)).isEqualTo(3);
        assertThat(placeholders(sql.planQuery())).isEqualTo(2);
        assertThat(sql.planQuery()).doesNotContain("UPDATE");
        assertThat(sql.restoreStatement(List.of("email")))
                .startsWith("WITH cutoff AS (SELECT CAST(? AS timestamptz) AS at)")
                .endsWith(
                        "AND t.\"email\" IS NULL AND t.\"updated_at\" <= ((SELECT at FROM cutoff) AT TIME ZONE 'UTC')");
    }

    @Test
    void aVersionGuardedClearRequiresThePlannedVersionAndBumpsIt() {
        ClearColumnsSql sql = new DatasetSql(shape(CutoffGuard.version(VERSION), Optional.empty())).clearing();

        String clear = sql.clearStatement(List.of("email"));

        assertThat(clear)
                .contains("SET \"email\" = NULL, \"version\" = t.\"version\" + 1")
                .contains("AND t.\"version\" = k.planned_version")
                .doesNotContain("cutoff");
        assertThat(placeholders(clear)).isEqualTo(2);
        assertThat(sql.restoreStatement(List.of("email")))
                .doesNotContain("cutoff")
                .contains("\"version\" = t.\"version\" + 1");
    }

    @Test
    void columnsThatMustNotBeClearedAreRefusedWithTheFix() {
        DatasetShape tree = shape(CutoffGuard.updatedAt(UPDATED_AT), Optional.of(TreeShape.recursive("parent")));

        assertThat(ClearableColumns.refusal(tree, List.of("email"))).isEmpty();
        assertThat(ClearableColumns.refusal(tree, List.of("email", "name")))
                .get()
                .asString()
                .contains("'name' is NOT NULL")
                .contains("ALTER TABLE shop.people ALTER COLUMN name DROP NOT NULL");
        assertThat(ClearableColumns.refusal(tree, List.of("parent")))
                .get()
                .asString()
                .contains("cut its subtree loose");
        assertThat(ClearableColumns.refusal(tree, List.of("updated_at")))
                .get()
                .asString()
                .contains("conditional column");
        assertThat(ClearableColumns.refusal(tree, List.of("fax")))
                .get()
                .asString()
                .contains("no column 'fax'");
    }

    @Test
    void aLookupBindsTheIdentifiersAsTheColumnsTypeAndIsBounded() {
        String lookup = LookupSql.keysByIdentifier(shape(CutoffGuard.updatedAt(UPDATED_AT), Optional.empty()));

        assertThat(lookup)
                .isEqualTo("SELECT to_jsonb(k)::text AS doc FROM (SELECT t.\"id\" FROM \"shop\".\"people\" AS t"
                        + " WHERE t.\"email\" = ANY (ARRAY(SELECT r.\"email\""
                        + " FROM jsonb_populate_recordset(NULL::\"shop\".\"people\", CAST(? AS jsonb)) AS r))"
                        + " LIMIT ?) AS k ORDER BY k.\"id\"");
    }

    private static DatasetShape shape(CutoffGuard guard, Optional<TreeShape> tree) {
        ConditionalColumn conditional = guard.kind() == CutoffGuard.Kind.VERSION
                ? ConditionalColumn.version("version")
                : ConditionalColumn.timestamp("updated_at");
        return new DatasetShape(
                TestDatabase.spec("shop", "people", "id", conditional).toBuilder()
                        .identifierColumn("email")
                        .build(),
                new TableSchema(
                        "shop",
                        "people",
                        List.of(ID, EMAIL, NAME, PARENT, UPDATED_AT, VERSION),
                        List.of("id"),
                        List.of()),
                guard,
                tree,
                List.of());
    }

    private static long placeholders(String sql) {
        return sql.chars().filter(c -> c == '?').count();
    }
}
