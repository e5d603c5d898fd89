package io.erasure.model.key;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Period;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The canonical text of a typed value (a record, and everything in it), for signatures that must survive a trip
 * through JSON: it is computed from the value as the reader holds it after parsing, never from the bytes on the wire,
 * so whitespace, property order, map order and how a number was written ({@code 100}, {@code 1.0E2}, {@code 100.00})
 * change nothing, while any change of a value does.
 *
 * <ul>
 *   <li>a record: its components sorted by name, each as its name and value. A component that is null, or a primitive
 *       at its default ({@code 0}, {@code false}), is left out: a reader that knows a component the writer did not
 *       reads exactly that, so a component added later (null or 0 by default) keeps older writers' forms. (A
 *       primitive cannot be null and a reference is left out only when null, so leaving them out is unambiguous.)</li>
 *   <li>a map: its entries sorted by their keys' canonical text; a list in its order; any other collection sorted.</li>
 *   <li>a number: its decimal value, trailing zeros stripped: {@code 42}, {@code 42L}, {@code BigInteger 42} and
 *       {@code BigDecimal 42.00} are the same (a reader with or without {@code USE_BIG_DECIMAL_FOR_FLOATS} holds the
 *       same value), a {@code double} or {@code float} is its shortest decimal; the scale of a decimal is not part of
 *       it. Strings, booleans, enums (by name), UUIDs, instants and durations (their ISO text) as they are.</li>
 * </ul>
 *
 * Every item is tagged and length-prefixed, so no two different values have the same text. A type it does not know is
 * refused ({@link IllegalArgumentException}) rather than rendered unstably.
 */
public final class CanonicalForm {

    private static final ClassValue<RecordComponent[]> COMPONENTS = new ClassValue<>() {
        @Override
        protected RecordComponent[] computeValue(Class<?> type) {
            RecordComponent[] components = type.getRecordComponents().clone();
            Arrays.sort(components, Comparator.comparing(RecordComponent::getName));
            for (RecordComponent component : components) {
                component.getAccessor().trySetAccessible();
            }
            return components;
        }
    };

    private CanonicalForm() {}

    /** The canonical text of {@code value} (null included). */
    public static String of(@Nullable Object value) {
        StringBuilder out = new StringBuilder(256);
        append(out, value);
        return out.toString();
    }

    private static void append(StringBuilder out, @Nullable Object value) {
        if (value == null) {
            out.append('z');
        } else if (value instanceof String s) {
            text(out, 's', s);
        } else if (value instanceof Boolean b) {
            out.append(b ? "b1" : "b0");
        } else if (value instanceof Number n) {
            text(out, 'n', number(n));
        } else if (value instanceof Character c) {
            text(out, 's', c.toString());
        } else if (value instanceof Enum<?> e) {
            text(out, 'e', e.name());
        } else if (value instanceof UUID
                || value instanceof TemporalAccessor
                || value instanceof Duration
                || value instanceof Period) {
            text(out, 't', value.toString());
        } else if (value instanceof Optional<?> optional) {
            append(out, optional.orElse(null));
        } else if (value instanceof Record record) {
            record(out, record);
        } else if (value instanceof Map<?, ?> map) {
            List<String[]> entries = new ArrayList<>(map.size());
            map.forEach((k, v) -> entries.add(new String[] {of(k), of(v)}));
            entries.sort(Comparator.comparing(entry -> entry[0]));
            out.append("m[");
            entries.forEach(entry -> out.append(entry[0]).append(entry[1]));
            out.append(']');
        } else if (value instanceof List<?> list) {
            out.append("l[");
            list.forEach(item -> append(out, item));
            out.append(']');
        } else if (value instanceof Collection<?> collection) {
            out.append("c[");
            collection.stream().map(CanonicalForm::of).sorted().forEach(out::append);
            out.append(']');
        } else {
            throw new IllegalArgumentException(
                    "no canonical form for a " + value.getClass().getName()
                            + ": give it one in CanonicalForm before it travels in a signed message");
        }
    }

    private static void record(StringBuilder out, Record record) {
        out.append("r[");
        for (RecordComponent component : COMPONENTS.get(record.getClass())) {
            Object value;
            try {
                value = component.getAccessor().invoke(record);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalArgumentException(
                        "cannot read " + record.getClass().getName() + "." + component.getName() + ": "
                                + e.getMessage(),
                        e);
            }
            if (value == null || component.getType().isPrimitive() && isDefault(value)) {
                continue;
            }
            text(out, 'k', component.getName());
            append(out, value);
        }
        out.append(']');
    }

    private static boolean isDefault(Object primitive) {
        if (primitive instanceof Boolean b) {
            return !b;
        }
        if (primitive instanceof Character c) {
            return c == 0;
        }
        return primitive instanceof Number n && n.doubleValue() == 0 && n.longValue() == 0;
    }

    private static String number(Number n) {
        if ((n instanceof Double || n instanceof Float) && !Double.isFinite(n.doubleValue())) {
            return Double.toString(n.doubleValue()); // NaN, Infinity, -Infinity
        }
        BigDecimal exact;
        if (n instanceof BigDecimal d) {
            exact = d;
        } else if (n instanceof BigInteger i) {
            exact = new BigDecimal(i);
        } else if (n instanceof Float f) {
            exact = new BigDecimal(Float.toString(f)); // the shortest decimal that reads back as this float
        } else if (n instanceof Double d) {
            exact = new BigDecimal(Double.toString(d));
        } else {
            exact = BigDecimal.valueOf(n.longValue());
        }
        return exact.signum() == 0 ? "0" : exact.stripTrailingZeros().toPlainString();
    }

    private static void text(StringBuilder out, char tag, String text) {
        out.append(tag).append(text.length()).append(':').append(text);
    }
}
