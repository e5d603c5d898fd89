package io.erasure.store.postgres.schema;

/**
 * A column as the catalog describes it.
 *
 * @param baseType       the type name ({@code pg_type.typname}), of the base type for a domain: {@code int8},
 *                       {@code timestamptz}, {@code bytea}, {@code _int4} for an array
 * @param generated      a generated (computed) column: never written by a restore
 * @param identityAlways {@code GENERATED ALWAYS AS IDENTITY}: a restore must say {@code OVERRIDING SYSTEM VALUE}
 * @param notNull        {@code NOT NULL}: anonymisation cannot clear it
 */
public record ColumnInfo(String name, String baseType, boolean generated, boolean identityAlways, boolean notNull) {

    /** A nullable column. */
    public ColumnInfo(String name, String baseType, boolean generated, boolean identityAlways) {
        this(name, baseType, generated, identityAlways, false);
    }

    public boolean isTimestamp() {
        return baseType.equals("timestamptz") || baseType.equals("timestamp");
    }

    public boolean isInteger() {
        return baseType.equals("int2") || baseType.equals("int4") || baseType.equals("int8");
    }

    public boolean isText() {
        return baseType.equals("text") || baseType.equals("varchar") || baseType.equals("bpchar");
    }

    public boolean isBytea() {
        return baseType.equals("bytea");
    }
}
