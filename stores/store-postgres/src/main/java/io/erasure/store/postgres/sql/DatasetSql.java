package io.erasure.store.postgres.sql;

import io.erasure.model.check.Names;
import io.erasure.store.postgres.schema.CutoffGuard;
import io.erasure.store.postgres.schema.DatasetShape;
import io.erasure.store.postgres.schema.TableSchema;
import io.erasure.store.postgres.tree.TreeShape;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The SQL text of one dataset's statements, built once from its checked {@link DatasetShape}; executing is
 * elsewhere, so a dry-run shows exactly these texts. Every identifier goes through {@link Names#quoted}; every
 * value is bound: the keys as one JSON array ({@code CAST(? AS jsonb)}, turned into typed columns by
 * {@code jsonb_populate_record(NULL::table, ...)}), the cut-off as one {@code timestamptz}.
 *
 * <p>All statements share the same common table expressions:
 * <ul>
 *   <li>{@code keys(ord, key columns[, planned_version])}: the requested keys, numbered;</li>
 *   <li>{@code roots}: the rows of those keys;</li>
 *   <li>{@code nodes(ord, is_root, key columns, ...)}: the roots and, for a tree, every row of their subtrees; for a
 *       tree whose nodes have their own identifier, only the nodes of the root's identifier: a node of another one
 *       (in {@code foreign_nodes}) is left out with everything under it;</li>
 *   <li>{@code dep_<i>}: the rows of child table i that belong to a node;</li>
 *   <li>{@code units(ord, digest)}: per key, a digest of every row a delete of it removes (node and child rows,
 *       each by table, primary key and {@code xmin}, the id of the transaction that wrote that row version). Any
 *       write to one of those rows, a row deleted and inserted again, a row added under a node all change it;</li>
 *   <li>{@code blocked(ord)}: keys that must not be deleted because a node or a child was written after the
 *       cut-off (or its materialized path is malformed), or, in a delete, because the key's unit digest is no longer
 *       the one planned: the whole subtree of such a key is kept.</li>
 * </ul>
 *
 * <h2>Deleting exactly what was planned (and so read)</h2>
 * The cut-off cannot guard every row (a dataset registered with conditional column none, a child table without
 * updated_at, a VERSION column that a write left unchanged), and between the read for the log and the delete there
 * is the log's acknowledgement, a kill switch's pause and the throttle's wait. So the plan records each key's unit
 * digest, and the delete removes a key's rows only while the digest is the same and each row still has the
 * {@code xmin} it had: a row written since (even inside the delete's own statement, through PostgreSQL's re-check of
 * a concurrently updated row) keeps the key and its whole unit, counted as kept. The deletion service plans before it
 * reads, so the rows it logged are the planned ones or newer; newer ones make the delete skip the key.
 */
public final class DatasetSql {

    private final DatasetShape shape;
    private final String table;
    private final List<String> key;

    private final String liveState;
    private final String read;
    private final String plan;
    private final String delete;
    private final ClearColumnsSql clearing;

    public DatasetSql(DatasetShape shape) {
        this.shape = shape;
        this.table = shape.spec().quotedTable();
        this.key = shape.table().primaryKey();
        this.liveState = buildLiveState();
        this.read = buildRead();
        this.plan = buildPlan();
        this.delete = buildDelete();
        this.clearing = new ClearColumnsSql(shape);
    }

    public DatasetShape shape() {
        return shape;
    }

    /** {@code (ord, present, write_micros)} per key; binds the keys. */
    public String liveStateQuery() {
        return liveState;
    }

    /** {@code (ord, is_root, source, doc, write_micros)} per row a delete of the keys removes; binds the keys. */
    public String readQuery() {
        return read;
    }

    /**
     * {@code (ord, present, blocked, unit_digest, kept_nodes[, current_version])} per key, {@code kept_nodes} counting
     * the tree nodes of other identifiers directly under the key's nodes (kept, with what hangs under them); binds the
     * keys[, the cut-off].
     */
    public String planQuery() {
        return plan;
    }

    /**
     * Deletes the keys' rows (and their subtrees and child rows) at the cut-off, and only if the catalog is still at
     * the planned {@link io.erasure.store.postgres.schema.SchemaVersion}; returns
     * {@code (ord, deleted, present, dependents, schema_unchanged)} per key. Binds the keys (with their planned
     * versions for a VERSION guard)[, the cut-off], the keys' planned unit digests (a JSON array of strings, in key
     * order), the planned schema digest. Run it after {@link #lockStatement()} in one
     * transaction.
     */
    public String deleteStatement() {
        return delete;
    }

    /**
     * Locks the dataset's tables against DDL (every ALTER TABLE and every new foreign key onto them waits for it) but
     * not against reads and writes of rows, so the schema the delete checks stays the schema it deletes under.
     */
    public String lockStatement() {
        return "LOCK TABLE "
                + shape.tables().stream()
                        .map(t -> Names.quotedQualified(t.namespace(), t.table()))
                        .collect(Collectors.joining(", "))
                + " IN ROW EXCLUSIVE MODE";
    }

    /** The statements of anonymisation (clearing columns) and of its restore. */
    public ClearColumnsSql clearing() {
        return clearing;
    }

    /** Inserts one row document unless its key exists; binds the document. */
    public static String restoreStatement(TableSchema target) {
        String quoted = Names.quotedQualified(target.namespace(), target.table());
        List<String> columns =
                target.writableColumns().stream().map(c -> c.name()).toList();
        boolean overriding = target.writableColumns().stream().anyMatch(c -> c.identityAlways());
        return "INSERT INTO " + quoted + " (" + list(columns) + ")" + (overriding ? " OVERRIDING SYSTEM VALUE" : "")
                + " SELECT " + list("r", columns) + " FROM jsonb_populate_record(NULL::" + quoted
                + ", CAST(? AS jsonb)) AS r"
                + " ON CONFLICT (" + list(target.primaryKey()) + ") DO NOTHING";
    }

    /** The row now stored under a document's key, as {@code to_jsonb}; binds the document. */
    public static String currentRowQuery(TableSchema target) {
        String quoted = Names.quotedQualified(target.namespace(), target.table());
        return "SELECT to_jsonb(t)::text FROM " + quoted + " AS t JOIN jsonb_populate_record(NULL::" + quoted
                + ", CAST(? AS jsonb)) AS r ON " + match("t", "r", target.primaryKey());
    }

    // --- building ---

    private enum Purpose {
        READ,
        PLAN,
        DELETE
    }

    private String buildLiveState() {
        return "WITH " + keys(false) + "\nSELECT k.ord, (" + qualified("t", key.get(0)) + " IS NOT NULL) AS present, "
                + writeMicros("t", shape.guard()) + " AS write_micros\nFROM keys AS k LEFT JOIN " + table + " AS t ON "
                + match("t", "k", key) + "\nORDER BY k.ord";
    }

    private String buildRead() {
        StringBuilder sql = new StringBuilder(with(Purpose.READ));
        sql.append("\nSELECT n.ord, n.is_root, -1 AS source, to_jsonb(t)::text AS doc, ")
                .append(writeMicros("t", shape.guard()))
                .append(" AS write_micros\nFROM nodes AS n JOIN ")
                .append(table)
                .append(" AS t ON ")
                .append(match("t", "n", key));
        for (int i = 0; i < shape.children().size(); i++) {
            DatasetShape.Child child = shape.children().get(i);
            sql.append("\nUNION ALL\nSELECT d.ord, false, ")
                    .append(i)
                    .append(", to_jsonb(c)::text, ")
                    .append(writeMicros("c", child.guard()))
                    .append("\nFROM dep_")
                    .append(i)
                    .append(" AS d JOIN ")
                    .append(child.declared().quotedTable())
                    .append(" AS c ON ")
                    .append(match("c", "d", child.table().primaryKey()));
        }
        return sql.append("\nORDER BY 1, 3, 2 DESC").toString();
    }

    private String buildPlan() {
        // joins on aggregated CTEs rather than a subquery per key: linear in the number of keys
        String version = shape.guard().kind() == CutoffGuard.Kind.VERSION ? ", r.current_version" : "";
        String kept = shape.nodesHaveOwnIdentifier() ? "coalesce(f.n, 0)" : "0";
        String keptJoin = shape.nodesHaveOwnIdentifier()
                ? "\nLEFT JOIN (SELECT ord, count(*) AS n FROM (" + keptBoundary()
                        + ") AS x GROUP BY ord) AS f ON f.ord = k.ord"
                : "";
        return with(Purpose.PLAN) + "\nSELECT k.ord, (r.ord IS NOT NULL) AS present, (b.ord IS NOT NULL) AS blocked,"
                + " u.digest AS unit_digest, " + kept + " AS kept_nodes" + version
                + "\nFROM keys AS k\nLEFT JOIN (SELECT DISTINCT ON (ord) * FROM roots) AS r ON r.ord = k.ord"
                + "\nLEFT JOIN (SELECT DISTINCT ord FROM blocked) AS b ON b.ord = k.ord"
                + "\nLEFT JOIN units AS u ON u.ord = k.ord" + keptJoin + "\nORDER BY k.ord";
    }

    private String buildDelete() {
        StringBuilder sql = new StringBuilder(with(Purpose.DELETE));
        // the catalog must still be the one the dataset was checked (and the plan made) at: a cascading foreign key or
        // a
        // column added since would delete or lose what was never logged. Run after lockStatement, nobody can change it.
        sql.append(",\nschema_now AS (SELECT ")
                .append(shape.schema().digestExpression())
                .append(" = ? AS unchanged)");
        sql.append(",\ndoomed AS (SELECT n.* FROM nodes AS n WHERE (SELECT unchanged FROM schema_now)"
                + " AND NOT EXISTS (SELECT 1 FROM blocked AS b WHERE b.ord = n.ord))");
        StringBuilder dependents = new StringBuilder("coalesce(g.dependents, 0)");
        StringBuilder joins = new StringBuilder();
        // children first in the text; all sub-statements run in one statement, foreign keys are checked at its end
        for (int i = 0; i < shape.children().size(); i++) {
            DatasetShape.Child child = shape.children().get(i);
            // exactly the child rows found with the doomed nodes, each at the version found
            List<String> childKey = child.table().primaryKey();
            sql.append(",\ndel_")
                    .append(i)
                    .append(" AS (DELETE FROM ")
                    .append(child.declared().quotedTable())
                    .append(" AS c USING dep_")
                    .append(i)
                    .append(" AS d WHERE ")
                    .append(match("c", "d", childKey))
                    .append(" AND ")
                    .append(unchanged("c", "d"))
                    // a key's nodes are doomed all together or not at all
                    .append(" AND EXISTS (SELECT 1 FROM doomed AS x WHERE x.ord = d.ord)")
                    .append(guardCondition("c", child.guard()))
                    .append(" RETURNING d.ord)");
            dependents.append(" + coalesce(x").append(i).append(".n, 0)");
            joins.append("\nLEFT JOIN (SELECT ord, count(*) AS n FROM del_")
                    .append(i)
                    .append(" GROUP BY ord) AS x")
                    .append(i)
                    .append(" ON x")
                    .append(i)
                    .append(".ord = k.ord");
        }
        sql.append(",\ngone AS (DELETE FROM ")
                .append(table)
                .append(" AS t USING doomed AS d WHERE ")
                .append(match("t", "d", key))
                .append(" AND ")
                .append(unchanged("t", "d"))
                .append(guardCondition("t", shape.guard()))
                .append(" RETURNING d.ord, d.is_root)");
        // joins on aggregated CTEs rather than a subquery per key: linear in the number of keys
        sql.append("\nSELECT k.ord, coalesce(g.deleted, false) AS deleted, (r.ord IS NOT NULL) AS present, ")
                .append(dependents)
                .append(" AS dependents, (SELECT unchanged FROM schema_now) AS schema_unchanged\nFROM keys AS k")
                .append("\nLEFT JOIN (SELECT ord, bool_or(is_root) AS deleted, count(*) FILTER (WHERE NOT is_root) AS"
                        + " dependents")
                .append(" FROM gone GROUP BY ord) AS g ON g.ord = k.ord")
                .append("\nLEFT JOIN (SELECT DISTINCT ord FROM roots) AS r ON r.ord = k.ord")
                .append(joins)
                .append("\nORDER BY k.ord");
        return sql.toString();
    }

    private String with(Purpose purpose) {
        boolean recursive =
                shape.tree().map(t -> t.mode() == TreeShape.Mode.RECURSIVE).orElse(false);
        List<String> ctes = new ArrayList<>();
        ctes.add(keys(purpose == Purpose.DELETE && shape.guard().kind() == CutoffGuard.Kind.VERSION));
        if (purpose != Purpose.READ && shape.usesCutoff()) {
            ctes.add("cutoff AS (SELECT CAST(? AS timestamptz) AS at)");
        }
        if (purpose == Purpose.DELETE) {
            ctes.add("planned AS (SELECT p.ord, p.digest FROM jsonb_array_elements_text(CAST(? AS jsonb))"
                    + " WITH ORDINALITY AS p(digest, ord))");
        }
        ctes.add(roots(purpose));
        boolean byPath = shape.tree()
                .map(t -> t.mode() == TreeShape.Mode.MATERIALIZED_PATH)
                .orElse(false);
        if (shape.nodesHaveOwnIdentifier() && byPath) {
            ctes.add(foreignNodes());
        }
        ctes.add(nodes());
        if (shape.nodesHaveOwnIdentifier() && !byPath && purpose != Purpose.READ) {
            ctes.add(foreignNodes());
        }
        for (int i = 0; i < shape.children().size(); i++) {
            ctes.add(dependents(i));
        }
        if (purpose != Purpose.READ) {
            ctes.add(units());
            ctes.add(blocked(purpose));
        }
        return (recursive ? "WITH RECURSIVE " : "WITH ") + String.join(",\n", ctes);
    }

    private String keys(boolean withPlannedVersion) {
        String version =
                withPlannedVersion ? ", " + qualified("r", shape.guard().column()) + " AS planned_version" : "";
        return "keys AS (SELECT e.ord, " + list("r", key) + version
                + " FROM jsonb_array_elements(CAST(? AS jsonb)) WITH ORDINALITY AS e(doc, ord)"
                + " CROSS JOIN LATERAL jsonb_populate_record(NULL::" + table + ", e.doc) AS r)";
    }

    private String roots(Purpose purpose) {
        StringBuilder columns = new StringBuilder("k.ord, " + list("t", key) + ", " + xmin("t") + " AS row_xmin");
        CutoffGuard guard = shape.guard();
        if (guard.kind() == CutoffGuard.Kind.UPDATED_AT) {
            columns.append(", ").append(qualified("t", guard.column())).append(" AS cond");
        } else if (guard.kind() == CutoffGuard.Kind.VERSION) {
            columns.append(", ").append(qualified("t", guard.column())).append(" AS current_version");
            if (purpose == Purpose.DELETE) {
                columns.append(", k.planned_version");
            }
        }
        shape.tree()
                .flatMap(TreeShape::pathColumn)
                .ifPresent(path ->
                        columns.append(", ").append(qualified("t", path)).append(" AS node_path"));
        if (shape.nodesHaveOwnIdentifier()) {
            columns.append(", ")
                    .append(qualified("t", shape.spec().identifierColumn()))
                    .append(" AS root_ident");
        }
        return "roots AS (SELECT " + columns + " FROM keys AS k JOIN " + table + " AS t ON " + match("t", "k", key)
                + ")";
    }

    private String nodes() {
        if (shape.tree().isEmpty()) {
            return "nodes AS (SELECT r.*, true AS is_root FROM roots AS r)";
        }
        TreeShape tree = shape.tree().get();
        boolean guarded = shape.guard().kind() == CutoffGuard.Kind.UPDATED_AT;
        if (tree.mode() == TreeShape.Mode.RECURSIVE) {
            String id = Names.quoted(key.get(0));
            boolean own = tree.nodesHaveOwnIdentifier();
            // UNION (not UNION ALL) drops rows already found, so a cycle in the data ends the recursion; a node of
            // another
            // identifier is not followed, so neither it nor anything under it is a node of this key
            return "nodes AS (SELECT r.ord, true AS is_root, r." + id + (guarded ? ", r.cond" : "") + ", r.row_xmin"
                    + (own ? ", r.root_ident" : "") + " FROM roots AS r"
                    + "\n  UNION\n  SELECT n.ord, false, c." + id
                    + (guarded ? ", " + qualified("c", shape.guard().column()) : "")
                    + ", " + xmin("c") + (own ? ", n.root_ident" : "") + " FROM nodes AS n JOIN " + table + " AS c ON "
                    + qualified("c", tree.parentColumn().orElseThrow()) + " = n." + id
                    + (own ? " WHERE " + sameIdentifier("c", "n") : "") + ")";
        }
        String path = qualified("c", tree.pathColumn().orElseThrow());
        return "nodes AS (SELECT r.ord, " + match("c", "r", key) + " AS is_root, " + list("c", key)
                + (guarded ? ", " + qualified("c", shape.guard().column()) + " AS cond" : "") + ", " + xmin("c")
                + " AS row_xmin"
                + " FROM roots AS r JOIN " + table + " AS c ON starts_with(" + path + ", r.node_path) WHERE "
                + validPath("r.node_path")
                + (tree.nodesHaveOwnIdentifier()
                        ? " AND NOT EXISTS (SELECT 1 FROM foreign_nodes AS x WHERE x.ord = r.ord AND" + " starts_with("
                                + path + ", x.node_path))"
                        : "")
                + ")";
    }

    /**
     * The tree nodes of another identifier (or none) that a key's subtree holds: recursive, those directly under one of
     * the key's nodes; materialized path, every one in the key's subtree (a node under one of them is kept too).
     */
    private String foreignNodes() {
        TreeShape tree = shape.tree().orElseThrow();
        if (tree.mode() == TreeShape.Mode.RECURSIVE) {
            String id = Names.quoted(key.get(0));
            return "foreign_nodes AS (SELECT n.ord, c." + id + " FROM nodes AS n JOIN " + table + " AS c ON "
                    + qualified("c", tree.parentColumn().orElseThrow()) + " = n." + id + " WHERE ("
                    + sameIdentifier("c", "n")
                    + ") IS NOT TRUE)";
        }
        String path = qualified("f", tree.pathColumn().orElseThrow());
        return "foreign_nodes AS (SELECT r.ord, " + path + " AS node_path FROM roots AS r JOIN " + table
                + " AS f ON starts_with("
                + path + ", r.node_path) WHERE " + validPath("r.node_path") + " AND NOT " + match("f", "r", key)
                + " AND ("
                + sameIdentifier("f", "r") + ") IS NOT TRUE)";
    }

    /** {@code (ord)} per kept node of another identifier whose parent is one of the key's nodes. */
    private String keptBoundary() {
        if (shape.tree().orElseThrow().mode() == TreeShape.Mode.RECURSIVE) {
            return "SELECT ord FROM foreign_nodes";
        }
        return "SELECT f.ord FROM foreign_nodes AS f WHERE NOT EXISTS (SELECT 1 FROM foreign_nodes AS g"
                + " WHERE g.ord = f.ord AND g.node_path <> f.node_path AND starts_with(f.node_path, g.node_path))";
    }

    /** The node's identifier is its key's (a NULL is nobody's). */
    private String sameIdentifier(String node, String root) {
        return qualified(node, shape.spec().identifierColumn()) + " = " + root + ".root_ident";
    }

    private String dependents(int i) {
        DatasetShape.Child child = shape.children().get(i);
        List<String> childColumns =
                new ArrayList<>(child.declared().references().keySet());
        List<String> parentColumns =
                new ArrayList<>(child.declared().references().values());
        String cond = child.guard().kind() == CutoffGuard.Kind.UPDATED_AT
                ? ", " + qualified("c", child.guard().column()) + " AS cond"
                : "";
        return "dep_" + i + " AS (SELECT n.ord, " + list("c", child.table().primaryKey()) + cond + ", " + xmin("c")
                + " AS row_xmin FROM nodes AS n JOIN "
                + child.declared().quotedTable() + " AS c ON " + match("c", childColumns, "n", parentColumns) + ")";
    }

    /** Per key, the digest of its unit: every node and child row, by source table, primary key and xmin. */
    private String units() {
        List<String> rows = new ArrayList<>();
        rows.add("SELECT n.ord, '-1:' || ROW(" + list("n", key) + ")::text || ':' || n.row_xmin FROM nodes AS n");
        for (int i = 0; i < shape.children().size(); i++) {
            rows.add("SELECT d.ord, '" + i + ":' || ROW("
                    + list("d", shape.children().get(i).table().primaryKey()) + ")::text || ':' || d.row_xmin FROM dep_"
                    + i + " AS d");
        }
        return "units AS (SELECT u.ord, md5(string_agg(u.id, ',' ORDER BY u.id)) AS digest FROM ("
                + String.join(" UNION ALL ", rows) + ") AS u(ord, id) GROUP BY u.ord)";
    }

    private String blocked(Purpose purpose) {
        List<String> parts = new ArrayList<>();
        if (purpose == Purpose.DELETE) {
            // a key whose rows are not all, and only, the rows planned, each at its planned version
            parts.add("SELECT p.ord FROM planned AS p LEFT JOIN units AS u ON u.ord = p.ord WHERE u.digest IS DISTINCT"
                    + " FROM p.digest");
        }
        if (shape.guard().kind() == CutoffGuard.Kind.UPDATED_AT) {
            parts.add("SELECT ord FROM nodes WHERE " + writtenAfter("cond", shape.guard()));
        }
        for (int i = 0; i < shape.children().size(); i++) {
            CutoffGuard guard = shape.children().get(i).guard();
            if (guard.kind() == CutoffGuard.Kind.UPDATED_AT) {
                parts.add("SELECT ord FROM dep_" + i + " WHERE " + writtenAfter("cond", guard));
            }
        }
        if (shape.tree().map(t -> t.mode() == TreeShape.Mode.MATERIALIZED_PATH).orElse(false)) {
            parts.add("SELECT ord FROM roots WHERE NOT coalesce(" + validPath("node_path") + ", false)");
        }
        if (shape.nodesHaveOwnIdentifier() && !shape.selfReferences().isEmpty()) {
            // deleting the nodes above a kept node would cascade into it, change it or fail on the foreign key
            parts.add("SELECT ord FROM foreign_nodes");
        }
        if (parts.isEmpty()) {
            parts.add("SELECT ord FROM keys WHERE false");
        }
        return "blocked AS (" + String.join(" UNION ", parts) + ")";
    }

    // --- fragments ---

    private static String validPath(String expression) {
        return "(" + expression + " LIKE '/%/' AND length(" + expression + ") >= 3)";
    }

    static String cutoffFor(CutoffGuard guard) {
        // a timestamp without time zone holds UTC
        return guard.withTimeZone() ? "(SELECT at FROM cutoff)" : "((SELECT at FROM cutoff) AT TIME ZONE 'UTC')";
    }

    static String writtenAfter(String expression, CutoffGuard guard) {
        return "(" + expression + " IS NULL OR " + expression + " > " + cutoffFor(guard) + ")";
    }

    private static String guardCondition(String alias, CutoffGuard guard) {
        return switch (guard.kind()) {
            case UPDATED_AT -> " AND " + qualified(alias, guard.column()) + " <= " + cutoffFor(guard);
            case VERSION -> " AND " + qualified(alias, guard.column()) + " = d.planned_version";
            case NONE -> "";
        };
    }

    /** The row version's xmin as a number (xid has no ordering operators, so it cannot be sorted or united). */
    private static String xmin(String alias) {
        return "(" + alias + ".xmin::text::bigint)";
    }

    /** The row is still the version found in the statement's CTEs (re-checked by PostgreSQL on a concurrent update). */
    private static String unchanged(String alias, String found) {
        return xmin(alias) + " = " + found + ".row_xmin";
    }

    private static String writeMicros(String alias, CutoffGuard guard) {
        if (guard.kind() != CutoffGuard.Kind.UPDATED_AT) {
            return "NULL::bigint";
        }
        String column = qualified(alias, guard.column());
        return "CASE WHEN isfinite(" + column + ") THEN floor(extract(epoch FROM " + column
                + ") * 1000000)::bigint END";
    }

    static String match(String left, String right, List<String> columns) {
        return match(left, columns, right, columns);
    }

    static String match(String left, List<String> leftColumns, String right, List<String> rightColumns) {
        return "(" + list(left, leftColumns) + ") = (" + list(right, rightColumns) + ")";
    }

    static String qualified(String alias, String column) {
        return alias + "." + Names.quoted(column);
    }

    static String list(List<String> columns) {
        return columns.stream().map(Names::quoted).collect(Collectors.joining(", "));
    }

    static String list(String alias, List<String> columns) {
        return columns.stream().map(c -> qualified(alias, c)).collect(Collectors.joining(", "));
    }
}
