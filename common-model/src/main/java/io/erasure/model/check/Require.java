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

    private static final int MAX_ECHO = 80;

    private Require() {
    }

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
                throw new IllegalArgumentException(field + " must not contain null keys or values, got " + k + "=" + v);
            }
        });
        return Map.copyOf(values);
    }

    public static void that(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Renders user input for an error message: quoted, and cut so a huge value cannot flood logs. */
    public static String echo(Object value) {
        String text = Objects.toString(value);
        if (text.length() > MAX_ECHO) {
            text = text.substring(0, MAX_ECHO) + "...";
        }
        return "'" + text + "'";
    }
}
