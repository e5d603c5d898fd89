package io.erasure.store.postgres.sql;

import static io.erasure.store.postgres.sql.DatasetSql.list;
import static io.erasure.store.postgres.sql.DatasetSql.qualified;

import io.erasure.store.postgres.schema.DatasetShape;

/**
 * The SQL of a lookup by identifier ({@code IdentifierLookup}):
 * {@code SELECT <key> FROM <table> WHERE <identifier> = ANY(<identifiers>) LIMIT ?}, sorted by key outside. The limit
 * only detects "too many rows" (the caller asks for one more than it accepts), so no order is imposed inside: an
 * inner {@code ORDER BY <key>} could tempt the planner to walk the primary key and filter instead of using the index.
 *
 * <p>The identifiers are bound as the keys of {@link DatasetSql} are: one JSON array of documents
 * ({@code [{"member": 7}, ...]}) that {@code jsonb_populate_recordset(NULL::table, ...)} turns into values of the
 * column's own type, so the comparison is the column's own {@code =} and an index that starts with the column
 * serves it. The keys come back as one {@code to_jsonb} document per row.
 */
public final class LookupSql {

    private LookupSql() {}

    /**
     * {@code (doc)} per row, its key columns only, in key order; binds the identifiers' documents, then the limit.
     * Over the limit, which rows come back is unspecified.
     */
    public static String keysByIdentifier(DatasetShape shape) {
        String table = shape.spec().quotedTable();
        String column = shape.spec().identifierColumn();
        String key = list("t", shape.table().primaryKey());
        return "SELECT to_jsonb(k)::text AS doc FROM (SELECT " + key + " FROM " + table + " AS t WHERE "
                + qualified("t", column) + " = ANY (ARRAY(SELECT " + qualified("r", column)
                + " FROM jsonb_populate_recordset(NULL::" + table + ", CAST(? AS jsonb)) AS r))"
                + " LIMIT ?) AS k ORDER BY " + list("k", shape.table().primaryKey());
    }
}
