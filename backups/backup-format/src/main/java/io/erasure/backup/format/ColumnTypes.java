package io.erasure.backup.format;

import java.util.Locale;
import java.util.Set;

/**
 * How a column type named in a manifest ({@code bigint}, {@code text}, {@code numeric(10,2)}...)
 * maps to JSON: integral types are JSON integers, decimal types JSON numbers, booleans JSON
 * booleans, everything else a string. CSV fields are typed the same way when read.
 */
public final class ColumnTypes {

    private static final Set<String> INTEGRAL = Set.of(
            "bigint",
            "int",
            "integer",
            "smallint",
            "tinyint",
            "int2",
            "int4",
            "int8",
            "serial",
            "bigserial",
            "smallserial",
            "serial2",
            "serial4",
            "serial8",
            "counter");
    private static final Set<String> DECIMAL =
            Set.of("decimal", "numeric", "float", "double", "real", "double precision", "float4", "float8", "varint");
    private static final Set<String> BOOLEAN = Set.of("boolean", "bool");

    private ColumnTypes() {}

    /** Integers that fit in a signed 64-bit long; {@code varint} and {@code numeric} do not count. */
    public static boolean isIntegral(String type) {
        return INTEGRAL.contains(base(type));
    }

    public static boolean isDecimal(String type) {
        return DECIMAL.contains(base(type));
    }

    public static boolean isBoolean(String type) {
        return BOOLEAN.contains(base(type));
    }

    /** The type's name without its parameters, lower-case: {@code numeric(10,2)} is {@code numeric}. */
    public static String base(String type) {
        String t = type.trim().toLowerCase(Locale.ROOT);
        int paren = t.indexOf('(');
        return (paren < 0 ? t : t.substring(0, paren)).trim();
    }
}
