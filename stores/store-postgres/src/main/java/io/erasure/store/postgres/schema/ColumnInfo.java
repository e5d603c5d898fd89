package io.erasure.store.postgres.schema;

/**
 * A column as the catalog describes it.
 *
 * @param baseType       the type name ({@code pg_type.typname}), of the base type for a domain: {@code int8},
 *                       {@code timestamptz}, {@code bytea}, {@code _int4} for an array
 * @param generated      a generated (computed) column: never written by a restore
 * @param identityAlways {@code GENERATED ALWAYS AS IDENTITY}: a restore must say {@code OVERRIDING SYSTEM VALUE}
 */
public record ColumnInfo(String name, String baseType, boolean generated, boolean identityAlways) {

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
