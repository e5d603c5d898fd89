package io.erasure.audit.join;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.ColumnTypes;
import io.erasure.identifiers.IdentifierHash;
import io.erasure.identifiers.IdentifierKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.jspecify.annotations.Nullable;

/**
 * Reads the values of one flat Parquet column as the platform's own backups spell them: integers as
 * longs, decimals as {@link BigDecimal}, text as strings, UUIDs in canonical form, dates, times and
 * timestamps as ISO-8601 strings ({@code Instant} form when adjusted to UTC), other bytes as base64.
 *
 * <p>The mapping is chosen once per part from the column's physical and logical type, so a column of a
 * type the audit cannot map fails before any row is read, naming the column. Values are read from a
 * {@link ColumnReader} positioned on a row; the caller moves it on.
 */
final class ParquetColumn {

    enum Shape {
        INTEGER,
        UNSIGNED,
        DECIMAL,
        TEXT,
        BYTES,
        UUID,
        DATE,
        TIME,
        TIMESTAMP,
        LOCAL_TIMESTAMP,
        BOOLEAN,
        FLOAT,
        DOUBLE
    }

    private final String part;
    private final PrimitiveType type;
    private final ColumnDescriptor descriptor;
    private final Shape shape;
    private final int scale;
    private final TimeUnit unit;
    private final int maxDefinitionLevel;
    private final boolean int32;

    private ParquetColumn(
            String part, PrimitiveType type, ColumnDescriptor descriptor, Shape shape, int scale, TimeUnit unit) {
        this.part = part;
        this.type = type;
        this.descriptor = descriptor;
        this.shape = shape;
        this.scale = scale;
        this.unit = unit;
        this.maxDefinitionLevel = descriptor.getMaxDefinitionLevel();
        this.int32 = type.getPrimitiveTypeName() == PrimitiveTypeName.INT32;
    }

    /**
     * @param declaredType the column's type in the manifest's schema: the Parquet type must be one that holds it
     * @throws BackupIntegrityException if the type has no mapping (INT96, INTERVAL, unknown annotations) or cannot
     *                                  hold the declared type
     */
    static ParquetColumn of(String part, PrimitiveType type, ColumnDescriptor descriptor, String declaredType) {
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        PrimitiveTypeName physical = type.getPrimitiveTypeName();
        boolean integral = physical == PrimitiveTypeName.INT32 || physical == PrimitiveTypeName.INT64;
        boolean bytes = physical == PrimitiveTypeName.BINARY || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
        int scale = 0;
        TimeUnit unit = TimeUnit.MICROS;
        Shape shape = null;
        if (logical == null) {
            shape = switch (physical) {
                case INT32, INT64 -> Shape.INTEGER;
                case BOOLEAN -> Shape.BOOLEAN;
                case FLOAT -> Shape.FLOAT;
                case DOUBLE -> Shape.DOUBLE;
                case BINARY, FIXED_LEN_BYTE_ARRAY -> Shape.BYTES;
                case INT96 -> null;
            };
        } else if (logical instanceof DecimalLogicalTypeAnnotation decimal && (integral || bytes)) {
            shape = Shape.DECIMAL;
            scale = decimal.getScale();
        } else if (logical instanceof IntLogicalTypeAnnotation integer && integral) {
            shape = integer.isSigned() ? Shape.INTEGER : Shape.UNSIGNED;
        } else if ((logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                        || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                        || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation)
                && physical == PrimitiveTypeName.BINARY) {
            shape = Shape.TEXT;
        } else if (logical instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation
                && physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                && type.getTypeLength() == 16) {
            shape = Shape.UUID;
        } else if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
                && physical == PrimitiveTypeName.INT32) {
            shape = Shape.DATE;
        } else if (logical instanceof TimeLogicalTypeAnnotation time && integral) {
            shape = Shape.TIME;
            unit = time.getUnit();
        } else if (logical instanceof TimestampLogicalTypeAnnotation timestamp && physical == PrimitiveTypeName.INT64) {
            shape = timestamp.isAdjustedToUTC() ? Shape.TIMESTAMP : Shape.LOCAL_TIMESTAMP;
            unit = timestamp.getUnit();
        }
        if (shape == null) {
            throw new BackupIntegrityException("column '" + type.getName() + "' of part " + part + " is " + type
                    + ", a Parquet type the audit cannot map"
                    + (physical == PrimitiveTypeName.INT96
                            ? " (INT96 is a legacy timestamp: write it as TIMESTAMP(MICROS,true))"
                            : "")
                    + "; identifier and key columns must be integers, decimals, strings, UUIDs, dates, times,"
                    + " timestamps, booleans, floating point or bytes");
        }
        if (shape == Shape.BYTES
                && physical == PrimitiveTypeName.BINARY
                && TypeFamily.of(declaredType) == TypeFamily.TEXT) {
            // text written as plain BINARY without the STRING annotation (Hive, Impala): UTF-8 all the same
            shape = Shape.TEXT;
        }
        TypeFamily family = TypeFamily.of(declaredType);
        if (!family.holds(shape)) {
            throw new BackupIntegrityException("column '" + type.getName() + "' of part " + part + " is " + type
                    + ", which cannot hold the manifest's type '" + declaredType + "' (" + family.expected
                    + "); fix the manifest's schema or the export");
        }
        return new ParquetColumn(part, type, descriptor, shape, scale, unit);
    }

    /** Families of the store type names a manifest may give, and the Parquet shapes that hold each. */
    enum TypeFamily {
        INTEGER("an INT32 or INT64 integer", Set.of(Shape.INTEGER, Shape.UNSIGNED)),
        DECIMAL(
                "a DECIMAL, an integer or a FLOAT/DOUBLE",
                Set.of(Shape.DECIMAL, Shape.INTEGER, Shape.UNSIGNED, Shape.FLOAT, Shape.DOUBLE)),
        BOOLEAN("a BOOLEAN", Set.of(Shape.BOOLEAN)),
        TEXT("a STRING, or text as plain BINARY", Set.of(Shape.TEXT)),
        UUID("a UUID or a STRING", Set.of(Shape.UUID, Shape.TEXT)),
        TIMESTAMP("a TIMESTAMP or an ISO-8601 STRING", Set.of(Shape.TIMESTAMP, Shape.LOCAL_TIMESTAMP, Shape.TEXT)),
        DATE("a DATE or an ISO-8601 STRING", Set.of(Shape.DATE, Shape.TEXT)),
        TIME("a TIME or an ISO-8601 STRING", Set.of(Shape.TIME, Shape.TEXT)),
        BYTES("BINARY or FIXED_LEN_BYTE_ARRAY", Set.of(Shape.BYTES)),
        OTHER("any type", EnumSet.allOf(Shape.class));

        private static final Set<String> TEXTS = Set.of(
                "text",
                "varchar",
                "character varying",
                "char",
                "character",
                "bpchar",
                "string",
                "ascii",
                "citext",
                "nvarchar",
                "nchar");
        private static final Set<String> BINARIES = Set.of("blob", "bytea", "binary", "varbinary");

        final String expected;
        private final Set<Shape> shapes;

        TypeFamily(String expected, Set<Shape> shapes) {
            this.expected = expected;
            this.shapes = shapes;
        }

        boolean holds(Shape shape) {
            return shapes.contains(shape);
        }

        static TypeFamily of(String declared) {
            String base = ColumnTypes.base(declared);
            if (ColumnTypes.isIntegral(declared)) {
                return INTEGER;
            } else if (ColumnTypes.isDecimal(declared)) {
                return DECIMAL;
            } else if (ColumnTypes.isBoolean(declared)) {
                return BOOLEAN;
            } else if (TEXTS.contains(base)) {
                return TEXT;
            } else if (base.equals("uuid") || base.equals("timeuuid")) {
                return UUID;
            } else if (base.startsWith("timestamp")) {
                return TIMESTAMP;
            } else if (base.equals("date")) {
                return DATE;
            } else if (base.startsWith("time")) {
                return TIME;
            } else if (BINARIES.contains(base)) {
                return BYTES;
            }
            return OTHER;
        }
    }

    String name() {
        return type.getName();
    }

    PrimitiveType type() {
        return type;
    }

    ColumnDescriptor descriptor() {
        return descriptor;
    }

    Shape shape() {
        return shape;
    }

    /**
     * Fails unless identifiers of {@code kind} can be read from this column: as 64-bit integers from integer
     * columns, as text from strings, integers, decimals and UUIDs.
     */
    void requireIdentifier(IdentifierKind kind, String role) {
        boolean integer = shape == Shape.INTEGER || shape == Shape.UNSIGNED;
        boolean ok = kind == IdentifierKind.NUMERIC
                ? integer
                : integer || shape == Shape.TEXT || shape == Shape.DECIMAL || shape == Shape.UUID;
        if (!ok) {
            throw new BackupIntegrityException("column '" + name() + "' (" + role + ") of part " + part + " is "
                    + type + ", which cannot be compared with "
                    + (kind == IdentifierKind.NUMERIC
                            ? "integer identifiers (the manifests type both identifier columns as integers)"
                            : "text identifiers: an identifier column must be text, an integer, a decimal or a"
                                    + " UUID"));
        }
    }

    /**
     * Fails unless the column holds instants: UTC-adjusted timestamps, or ISO-8601 text. A timestamp not adjusted
     * to UTC is refused: read as UTC it could make an identifier deletable hours early.
     */
    void requireTimestamp(String role) {
        if (shape != Shape.TIMESTAMP && shape != Shape.TEXT) {
            throw new BackupIntegrityException("column '" + name() + "' (" + role + ") of part " + part + " is "
                    + type + "; it must be a TIMESTAMP adjusted to UTC (isAdjustedToUTC=true) or an ISO-8601"
                    + " string such as \"2024-01-31T02:00:00Z\"");
        }
    }

    boolean isNull(ColumnReader reader) {
        return reader.getCurrentDefinitionLevel() < maxDefinitionLevel;
    }

    /** Moves past the current row without decoding its value. */
    void skip(ColumnReader reader) {
        if (!isNull(reader)) {
            reader.skip();
        }
        reader.consume();
    }

    /**
     * Writes the current row's identifier to {@code a[i]} (numeric) or {@code a[i], b[i]} (hashed text); a hashed
     * one's value is kept in {@code kept[i]} (a {@link Binary} for text, else the {@link #value}), for
     * {@link #keptValue} to give back should the row match.
     *
     * @return false if the row has no identifier (null, or an unsigned value beyond a long), so it is never a
     *         candidate
     */
    boolean identifier(ColumnReader reader, IdentifierKind kind, long[] a, long[] b, @Nullable Object[] kept, int i) {
        if (isNull(reader)) {
            return false;
        }
        if (kind == IdentifierKind.NUMERIC) {
            long value = int32 ? integer(reader.getInteger()) : reader.getLong();
            a[i] = value;
            return isNumericIdentifier(value);
        }
        if (shape == Shape.TEXT) {
            Binary binary = reader.getBinary();
            // a value in a page's own buffer stays as it is; one in a reused buffer is copied
            if (kept != null) {
                kept[i] = binary.copy();
            }
            ByteBuffer text = binary.toByteBuffer();
            if (text.hasArray()) {
                int from = text.arrayOffset() + text.position();
                IdentifierHash.hash(text.array(), from, from + text.remaining(), a, b, i);
            } else {
                byte[] copy = new byte[text.remaining()];
                text.get(copy);
                IdentifierHash.hash(copy, 0, copy.length, a, b, i);
            }
            return true;
        }
        Object value = value(reader);
        if (kept != null) {
            kept[i] = value;
        }
        IdentifierHash.hash(
                value instanceof BigDecimal decimal ? decimal.toPlainString() : String.valueOf(value), a, b, i);
        return true;
    }

    /** An INT32 value of this integer column as a long: unsigned ones as such. */
    long integer(int value) {
        return shape == Shape.UNSIGNED ? Integer.toUnsignedLong(value) : value;
    }

    /**
     * True if {@code value}, read from this integer column, is a numeric identifier: not an unsigned value beyond a
     * long, and not Long.MIN_VALUE, which marks a number that is not a long, as in the JSON reader.
     */
    boolean isNumericIdentifier(long value) {
        return (shape != Shape.UNSIGNED || value >= 0) && value != Bytes.NOT_A_LONG;
    }

    /** The {@link #value} of a row whose hashed identifier {@link #identifier} kept. */
    static Object keptValue(Object kept) {
        return kept instanceof Binary text ? text.toStringUsingUTF8() : kept;
    }

    /** The current row's value as a timestamp in microseconds since the epoch; the row must not be null. */
    long micros(ColumnReader reader) {
        if (shape == Shape.TEXT) {
            String text = reader.getBinary().toStringUsingUTF8();
            try {
                return Timestamps.parseMicros(text);
            } catch (IllegalArgumentException e) {
                throw new MalformedRecordException(name() + ": " + e.getMessage());
            }
        }
        return toMicros(reader.getLong());
    }

    /** The current row's value, or null. */
    @Nullable
    Object value(ColumnReader reader) {
        if (isNull(reader)) {
            return null;
        }
        PrimitiveTypeName physical = descriptor.getPrimitiveType().getPrimitiveTypeName();
        return switch (shape) {
            case INTEGER -> physical == PrimitiveTypeName.INT32 ? (long) reader.getInteger() : reader.getLong();
            case UNSIGNED -> {
                if (physical == PrimitiveTypeName.INT32) {
                    yield Integer.toUnsignedLong(reader.getInteger());
                }
                long value = reader.getLong();
                yield value >= 0 ? (Object) value : new BigInteger(Long.toUnsignedString(value));
            }
            case DECIMAL ->
                switch (physical) {
                    case INT32 -> BigDecimal.valueOf(reader.getInteger(), scale);
                    case INT64 -> BigDecimal.valueOf(reader.getLong(), scale);
                    default -> new BigDecimal(new BigInteger(reader.getBinary().getBytes()), scale);
                };
            case TEXT -> reader.getBinary().toStringUsingUTF8();
            case BYTES -> Base64.getEncoder().encodeToString(reader.getBinary().getBytes());
            case UUID -> {
                ByteBuffer uuid = ByteBuffer.wrap(reader.getBinary().getBytes());
                yield new UUID(uuid.getLong(), uuid.getLong()).toString();
            }
            case DATE -> LocalDate.ofEpochDay(reader.getInteger()).toString();
            case TIME -> {
                long value = physical == PrimitiveTypeName.INT32 ? reader.getInteger() : reader.getLong();
                yield DateTimeFormatter.ISO_LOCAL_TIME.format(LocalTime.ofNanoOfDay(toNanos(value)));
            }
            case TIMESTAMP -> instant(reader.getLong()).toString();
            case LOCAL_TIMESTAMP ->
                DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(
                        LocalDateTime.ofInstant(instant(reader.getLong()), ZoneOffset.UTC));
            case BOOLEAN -> reader.getBoolean();
            case FLOAT -> number(reader.getFloat());
            case DOUBLE -> number(reader.getDouble());
        };
    }

    private Instant instant(long value) {
        return switch (unit) {
            case MILLIS -> Instant.ofEpochMilli(value);
            case MICROS ->
                Instant.ofEpochSecond(Math.floorDiv(value, 1_000_000L), Math.floorMod(value, 1_000_000L) * 1000L);
            case NANOS ->
                Instant.ofEpochSecond(Math.floorDiv(value, 1_000_000_000L), Math.floorMod(value, 1_000_000_000L));
        };
    }

    private long toMicros(long value) {
        return switch (unit) {
            case MILLIS -> Math.multiplyExact(value, 1000L);
            case MICROS -> value;
            case NANOS -> Math.floorDiv(value, 1000L);
        };
    }

    private long toNanos(long value) {
        return switch (unit) {
            case MILLIS -> value * 1_000_000L;
            case MICROS -> value * 1000L;
            case NANOS -> value;
        };
    }

    /** As a JSON backup reads back a number: a decimal, or the text of a value JSON cannot hold. */
    private static Object number(double value) {
        return Double.isFinite(value) ? new BigDecimal(Double.toString(value)) : Double.toString(value);
    }

    private static Object number(float value) {
        return Float.isFinite(value) ? new BigDecimal(Float.toString(value)) : Float.toString(value);
    }
}
