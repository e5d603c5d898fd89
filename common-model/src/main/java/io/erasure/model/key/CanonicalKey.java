package io.erasure.model.key;

import io.erasure.model.check.Require;
import io.erasure.model.dataset.KeyColumns;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Key maps (column name to value) and their canonical text form.
 *
 * <p>The canonical form is compact JSON with the columns sorted by name and values rendered as they
 * look after a JSON round trip: {@code 42}, {@code 42L} and {@code BigInteger 42} render the same,
 * a {@link UUID} or an {@link java.time.Instant} renders as its string. So a key read from a store
 * and the same key read back from Kafka or S3 hash to the same id. Values of any other type are
 * refused rather than rendered unstably; adapters convert blobs and driver types first.
 */
public final class CanonicalKey {

    private CanonicalKey() {}

    /**
     * An unmodifiable copy of a key that keeps the column order given: non-empty, at most
     * {@link KeyColumns#MAX_COLUMNS} columns (no primary key has more), column names present, values non-null
     * (key columns are never null).
     */
    public static Map<String, Object> copyOf(String field, Map<String, ?> key) {
        Require.nonNull(field, key);
        Require.atMost(field + " (columns of one key)", key.size(), KeyColumns.MAX_COLUMNS);
        if (key.isEmpty()) {
            throw new IllegalArgumentException(field + " must contain at least one key column");
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        key.forEach((column, value) -> {
            Require.nonBlank(field + " column name", column);
            if (value == null) {
                throw new IllegalArgumentException(
                        field + "." + Require.truncate(column) + " must not be null: key columns always have a value");
            }
            copy.put(column, value);
        });
        return Collections.unmodifiableMap(copy);
    }

    /**
     * A digest of a set of keys: SHA-256 hex over {@code "deleted-keys-v1"} and the keys' canonical forms,
     * sorted, so the same set gives the same digest in any order and with any number typing. Null for
     * no keys. Receipts hold it to prove which keys were deleted without listing them.
     */
    public static @Nullable String digestOf(Collection<? extends Map<String, ?>> keys) {
        if (keys.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>(keys.size() + 1);
        parts.add("deleted-keys-v1");
        keys.stream().map(CanonicalKey::render).sorted().forEach(parts::add);
        return DeterministicId.sha256Hex(parts.toArray(String[]::new));
    }

    /** The canonical text of a key: {@code {"a":1,"b":"x"}} with columns sorted by name. */
    public static String render(Map<String, ?> key) {
        StringBuilder out = new StringBuilder();
        appendValue(out, key);
        return out.toString();
    }

    private static void appendValue(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean b) {
            out.append(b);
        } else if (value instanceof Number n) {
            appendNumber(out, n);
        } else if (value instanceof CharSequence
                || value instanceof UUID
                || value instanceof Enum<?>
                || value instanceof TemporalAccessor) {
            appendString(out, value.toString());
        } else if (value instanceof byte[] bytes) {
            appendString(out, Base64.getEncoder().encodeToString(bytes));
        } else if (value instanceof Map<?, ?> map) {
            appendMap(out, map);
        } else if (value instanceof Collection<?> list) {
            out.append('[');
            boolean first = true;
            for (Object element : list) {
                if (!first) {
                    out.append(',');
                }
                appendValue(out, element);
                first = false;
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException(
                    "key value of type " + value.getClass().getName()
                            + " has no canonical form; convert it to a String, number, boolean,"
                            + " UUID or java.time value first");
        }
    }

    private static void appendMap(StringBuilder out, Map<?, ?> map) {
        Map<String, Object> sorted = new TreeMap<>();
        map.forEach((k, v) -> sorted.put(String.valueOf(k), v));
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, Object> entry : sorted.entrySet()) {
            if (!first) {
                out.append(',');
            }
            appendString(out, entry.getKey());
            out.append(':');
            appendValue(out, entry.getValue());
            first = false;
        }
        out.append('}');
    }

    private static void appendNumber(StringBuilder out, Number n) {
        if (n instanceof Integer
                || n instanceof Long
                || n instanceof Short
                || n instanceof Byte
                || n instanceof BigInteger) {
            out.append(n);
            return;
        }
        if ((n instanceof Double d && !Double.isFinite(d)) || (n instanceof Float f && !Float.isFinite(f))) {
            appendString(out, n.toString());
            return;
        }
        // Float.toString keeps 0.1f as "0.1", as JSON does; integral decimals lose their ".0" as JSON readers do
        BigDecimal decimal = n instanceof BigDecimal bd ? bd : new BigDecimal(n.toString());
        out.append(decimal.stripTrailingZeros().toPlainString());
    }

    private static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
