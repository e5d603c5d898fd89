package io.erasure.model.check;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Argument checks for model records. Every failure is an {@link IllegalArgumentException} whose
 * message starts with the field name and says what a valid value looks like.
 */
public final class Require {

    /** How much of a value an error message quotes: enough to recognise it, never a whole oversized input. */
    public static final int MAX_ECHO = 200;

    private Require() {}

    public static <T> T nonNull(String field, T value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is required but was null");
        }
        return value;
    }

    public static String nonBlank(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field + " is required and must not be blank");
        }
        return value;
    }

    public static int inRange(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(field + " must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    public static long nonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must be >= 0, got " + value);
        }
        return value;
    }

    public static long positive(String field, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " must be > 0, got " + value);
        }
        return value;
    }

    /**
     * Fails unless a list (or map) of {@code size} elements stays within {@code max}, naming the field and the bound.
     * Checked before the elements are, so an oversized request costs no more than counting it.
     */
    public static void atMost(String field, int size, int max) {
        if (size > max) {
            throw new IllegalArgumentException(field + " has " + size + " elements; at most " + max + " are allowed");
        }
    }

    /** {@link #listOf(String, Collection)} with at most {@code max} elements. */
    public static <T> List<T> listOf(String field, Collection<? extends T> values, int max) {
        nonNull(field, values);
        atMost(field, values.size(), max);
        return listOf(field, values);
    }

    /** {@link #nonEmptyListOf(String, Collection)} with at most {@code max} elements. */
    public static <T> List<T> nonEmptyListOf(String field, Collection<? extends T> values, int max) {
        nonNull(field, values);
        atMost(field, values.size(), max);
        return nonEmptyListOf(field, values);
    }

    /** {@link #mapOf(String, Map)} with at most {@code max} entries. */
    public static <K, V> Map<K, V> mapOf(String field, Map<? extends K, ? extends V> values, int max) {
        nonNull(field, values);
        atMost(field, values.size(), max);
        return mapOf(field, values);
    }

    /** An immutable copy of a list that must be present, with no null element. */
    public static <T> List<T> listOf(String field, Collection<? extends T> values) {
        nonNull(field, values);
        int i = 0;
        for (T value : values) {
            if (value == null) {
                throw new IllegalArgumentException(field + "[" + i + "] must not be null");
            }
            i++;
        }
        return List.copyOf(values);
    }

    public static <T> List<T> nonEmptyListOf(String field, Collection<? extends T> values) {
        List<T> copy = listOf(field, values);
        if (copy.isEmpty()) {
            throw new IllegalArgumentException(field + " must contain at least one element");
        }
        return copy;
    }

    /** An immutable copy of a map with no null key or value (entry order is not kept). */
    public static <K, V> Map<K, V> mapOf(String field, Map<? extends K, ? extends V> values) {
        nonNull(field, values);
        values.forEach((k, v) -> {
            if (k == null || v == null) {
                throw new IllegalArgumentException(
                        field + " must not contain null keys or values, got " + echo(k) + "=" + v);
            }
        });
        return Map.copyOf(values);
    }

    public static void that(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * Renders user input for an error message: quoted, and cut after {@value #MAX_ECHO} characters with the count of
     * the rest ({@code 'aaaa…(4800 more)'}), so a huge value can flood neither a response nor the logs.
     */
    public static String echo(Object value) {
        return "'" + truncate(Objects.toString(value)) + "'";
    }

    /** {@code text} cut as {@link #echo} cuts it, unquoted. */
    public static String truncate(String text) {
        if (text == null || text.length() <= MAX_ECHO) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(MAX_ECHO - 1)) ? MAX_ECHO - 1 : MAX_ECHO;
        return text.substring(0, end) + "\u2026(" + (text.length() - end) + " more)";
    }
}
