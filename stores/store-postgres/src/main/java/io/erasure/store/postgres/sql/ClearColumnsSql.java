package io.erasure.store.postgres.sql;

import static io.erasure.store.postgres.sql.DatasetSql.cutoffFor;
import static io.erasure.store.postgres.sql.DatasetSql.list;
import static io.erasure.store.postgres.sql.DatasetSql.match;
import static io.erasure.store.postgres.sql.DatasetSql.qualified;
import static io.erasure.store.postgres.sql.DatasetSql.writtenAfter;

import io.erasure.model.check.Names;
import io.erasure.store.postgres.schema.CutoffGuard;
import io.erasure.store.postgres.schema.DatasetShape;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The SQL of anonymisation: clearing (setting to NULL) some columns of a dataset's rows, and putting them back
 * from the deletion records. Only the keyed rows are touched, never their subtrees; the columns are checked by
 * {@code ClearableColumns} first. Values are bound as in {@link DatasetSql}: keys as a JSON array, a record's
 * values as one JSON document, the cut-off as one {@code timestamptz}.
 *
 * <h2>What the clear conditions on, and what it writes besides NULLs</h2>
 * Exactly what a delete conditions on ({@link CutoffGuard}): {@code updated_at <= cut-off}, or the version read at
 * plan time, or nothing for an explicit none; and, whatever the guard, the row version the plan found ({@code xmin},
 * as a delete's unit digest: see {@link DatasetSql}), so a value written after the plan, and so after the read that
 * logged the values to clear, is never cleared unlogged.
 * <ul>
 *   <li>An updated_at column is left as it is: the clear is not a write of the owner's data, and bumping it would
 *       make the anonymised row look written after the cut-off, so a later delete at that cut-off would skip it and
 *       the restore of this anonymisation (which requires the row unwritten since the cut-off) would never apply.</li>
 *   <li>A version column is incremented: it is an optimistic lock, and a writer still holding the row as it was
 *       before the clear must fail its {@code WHERE version = ?} update rather than write the cleared values back.
 *       A restore increments it too, for the same reason.</li>
 * </ul>
 */
public final class ClearColumnsSql {

    private final String table;
    private final List<String> key;
    private final CutoffGuard guard;

    ClearColumnsSql(DatasetShape shape) {
        this.table = shape.spec().quotedTable();
        this.key = shape.table().primaryKey();
        this.guard = shape.guard();
    }

    /** True if the statements bind the cut-off (an updated_at guard). */
    public boolean usesCutoff() {
        return guard.usesCutoff();
    }

    /**
     * {@code (ord, present, blocked, unit_digest, kept_nodes[, current_version])} per key, judging the keyed row alone
     * ({@code kept_nodes} is always 0: subtrees are not touched); binds the keys[, the cut-off].
     */
    public String planQuery() {
        String present = "(" + qualified("t", key.get(0)) + " IS NOT NULL)";
        String blocked = guard.kind() == CutoffGuard.Kind.UPDATED_AT
                ? "(" + present + " AND " + writtenAfter(qualified("t", guard.column()), guard) + ")"
                : "false";
        String version = guard.kind() == CutoffGuard.Kind.VERSION
                ? ", " + qualified("t", guard.column()) + " AS current_version"
                : "";
        return with(false, false) + "\nSELECT k.ord, " + present + " AS present, " + blocked + " AS blocked, "
                + rowDigest("t")
                + " AS unit_digest, 0 AS kept_nodes" + version
                + "\nFROM keys AS k LEFT JOIN " + table + " AS t ON " + match("t", "k", key) + "\nORDER BY k.ord";
    }

    /**
     * Sets {@code columns} to NULL in the keys' rows still at or before the cut-off (or at their planned version);
     * returns {@code (ord, deleted, present)} per key, {@code deleted} meaning cleared, so that the delete executor
     * counts both alike. Binds the keys (with their planned versions for a VERSION guard)[, the cut-off], the keys'
     * planned row digests (a JSON array of strings, in key order).
     */
    public String clearStatement(List<String> columns) {
        String set = columns.stream().map(c -> Names.quoted(c) + " = NULL").collect(Collectors.joining(", "));
        return with(guard.kind() == CutoffGuard.Kind.VERSION, true)
                + ",\ncleared AS (UPDATE " + table + " AS t SET " + set + bumpVersion()
                + " FROM keys AS k JOIN planned AS p ON p.ord = k.ord WHERE " + match("t", "k", key) + " AND "
                + rowDigest("t")
                + " = p.digest" + condition("k") + " RETURNING k.ord)"
                + "\nSELECT k.ord, (c.ord IS NOT NULL) AS deleted, (" + qualified("t", key.get(0))
                + " IS NOT NULL) AS present"
                + "\nFROM keys AS k LEFT JOIN cleared AS c ON c.ord = k.ord LEFT JOIN " + table + " AS t ON "
                + match("t", "k", key) + "\nORDER BY k.ord";
    }

    /**
     * Puts back one record's {@code columns} only where every one of them is still NULL and, for an updated_at guard,
     * the row was not written after the record's cut-off: newer data is never overwritten. A VERSION guard cannot
     * tell when the row was written, so only the NULLs are required. Binds [the cut-off,] the record as a document.
     */
    public String restoreStatement(List<String> columns) {
        String set = columns.stream()
                .map(c -> Names.quoted(c) + " = " + qualified("r", c))
                .collect(Collectors.joining(", "));
        String stillNull = columns.stream()
                .map(c -> " AND " + qualified("t", c) + " IS NULL")
                .collect(Collectors.joining());
        String written = guard.kind() == CutoffGuard.Kind.UPDATED_AT
                ? " AND " + qualified("t", guard.column()) + " <= " + cutoffFor(guard)
                : "";
        return (usesCutoff() ? "WITH cutoff AS (SELECT CAST(? AS timestamptz) AS at)\n" : "")
                + "UPDATE " + table + " AS t SET " + set + bumpVersion()
                + " FROM jsonb_populate_record(NULL::" + table + ", CAST(? AS jsonb)) AS r WHERE "
                + match("t", "r", key)
                + stillNull + written;
    }

    private String with(boolean withPlannedVersion, boolean withPlannedRows) {
        String version = withPlannedVersion ? ", " + qualified("r", guard.column()) + " AS planned_version" : "";
        return "WITH keys AS (SELECT e.ord, " + list("r", key) + version
                + " FROM jsonb_array_elements(CAST(? AS jsonb)) WITH ORDINALITY AS e(doc, ord)"
                + " CROSS JOIN LATERAL jsonb_populate_record(NULL::" + table + ", e.doc) AS r)"
                + (usesCutoff() ? ",\ncutoff AS (SELECT CAST(? AS timestamptz) AS at)" : "")
                + (withPlannedRows
                        ? ",\nplanned AS (SELECT p.ord, p.digest FROM jsonb_array_elements_text(CAST(? AS jsonb))"
                                + " WITH ORDINALITY AS p(digest, ord))"
                        : "");
    }

    /** The digest of the row version: it changes with every write of the row, and a row inserted again has another. */
    private String rowDigest(String alias) {
        return "md5(" + alias + ".xmin::text)";
    }

    private String condition(String keys) {
        return switch (guard.kind()) {
            case UPDATED_AT -> " AND " + qualified("t", guard.column()) + " <= " + cutoffFor(guard);
            case VERSION -> " AND " + qualified("t", guard.column()) + " = " + keys + ".planned_version";
            case NONE -> "";
        };
    }

    private String bumpVersion() {
        return guard.kind() == CutoffGuard.Kind.VERSION
                ? ", " + Names.quoted(guard.column()) + " = " + qualified("t", guard.column()) + " + 1"
                : "";
    }
}
