package io.erasure.store.postgres.schema;

/**
 * What a delete of one table is conditioned on.
 *
 * <ul>
 *   <li>{@link Kind#UPDATED_AT}: the row goes only if {@code column <= cut-off} (a NULL is never at or before it).
 *       A {@code timestamp} column without time zone is read as UTC.</li>
 *   <li>{@link Kind#VERSION}: a version number cannot say whether a write came after the cut-off, so the plan
 *       reads each row's current version and the delete goes only if {@code column = version read at plan time}:
 *       a row updated since the plan survives, one updated between the cut-off and the plan does not.</li>
 *   <li>{@link Kind#NONE}: the owner registered the dataset explicitly without a conditional column; deletes are
 *       not conditioned on the cut-off and a row updated after it (but before the plan) is deleted too.</li>
 * </ul>
 * Every delete is in addition conditioned on the row versions its plan found ({@code xmin}), whatever the guard.
 */
public record CutoffGuard(Kind kind, String column, boolean withTimeZone) {

    public enum Kind {
        UPDATED_AT,
        VERSION,
        NONE
    }

    public static final CutoffGuard NONE = new CutoffGuard(Kind.NONE, null, false);

    public static CutoffGuard updatedAt(ColumnInfo column) {
        return new CutoffGuard(Kind.UPDATED_AT, column.name(), column.baseType().equals("timestamptz"));
    }

    public static CutoffGuard version(ColumnInfo column) {
        return new CutoffGuard(Kind.VERSION, column.name(), false);
    }

    public boolean usesCutoff() {
        return kind == Kind.UPDATED_AT;
    }
}
