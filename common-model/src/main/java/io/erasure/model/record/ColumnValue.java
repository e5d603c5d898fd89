package io.erasure.model.record;

import io.erasure.model.check.Names;
import org.jspecify.annotations.Nullable;

/**
 * One column of a deleted row as it was read just before the delete.
 *
 * @param value           the value in its JSON form (blobs as base64 strings); null for a null cell. Numbers are exact:
 *                        read back from JSON (service-support's {@code PlatformJson}), a whole number is an
 *                        {@code Integer}, {@code Long} or {@code BigInteger} and any other number a
 *                        {@code BigDecimal} with the digits as written, never a rounded {@code double}
 * @param writeTimeMicros the cell's write timestamp, or null where the store has none (key columns, relational stores)
 * @param ttlSeconds      the cell's remaining TTL, or null if it has none; a restore writes it back with this TTL
 */
public record ColumnValue(
        String name,
        @Nullable Object value,
        @Nullable Long writeTimeMicros,
        @Nullable Integer ttlSeconds) {

    public ColumnValue {
        Names.identifier("column.name", name);
        if (ttlSeconds != null && ttlSeconds < 0) {
            throw new IllegalArgumentException(
                    "column '" + name + "' ttlSeconds must be >= 0 or null, got " + ttlSeconds);
        }
    }

    public static ColumnValue of(String name, Object value) {
        return new ColumnValue(name, value, null, null);
    }
}
