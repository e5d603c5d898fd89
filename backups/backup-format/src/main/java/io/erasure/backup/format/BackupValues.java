package io.erasure.backup.format;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.temporal.TemporalAccessor;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import tools.jackson.core.JsonGenerator;

/**
 * How column values are written in part files: numbers as JSON numbers, booleans as booleans,
 * text, UUIDs and {@code java.time} values as their ISO-8601 / canonical strings, bytes as base64,
 * collections as arrays and maps as objects. Any other type is written as its {@code toString()}.
 */
public final class BackupValues {

    private BackupValues() {}

    public static void write(JsonGenerator g, Object value) {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Long
                || value instanceof Integer
                || value instanceof Short
                || value instanceof Byte) {
            g.writeNumber(((Number) value).longValue());
        } else if (value instanceof BigInteger i) {
            g.writeNumber(i);
        } else if (value instanceof BigDecimal d) {
            g.writeNumber(d);
        } else if (value instanceof Double d) {
            if (Double.isFinite(d)) {
                g.writeNumber(d);
            } else {
                g.writeString(d.toString());
            }
        } else if (value instanceof Float f) {
            if (Float.isFinite(f)) {
                g.writeNumber(f);
            } else {
                g.writeString(f.toString());
            }
        } else if (value instanceof Collection<?> list) {
            g.writeStartArray();
            for (Object element : list) {
                write(g, element);
            }
            g.writeEndArray();
        } else if (value instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                g.writeName(String.valueOf(entry.getKey()));
                write(g, entry.getValue());
            }
            g.writeEndObject();
        } else {
            g.writeString(text(value));
        }
    }

    /** The text of a scalar as it appears in a CSV field or a JSON string. */
    public static String text(Object value) {
        if (value instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        } else if (value instanceof ByteBuffer buffer) {
            ByteBuffer copy = buffer.duplicate();
            byte[] bytes = new byte[copy.remaining()];
            copy.get(bytes);
            return Base64.getEncoder().encodeToString(bytes);
        } else if (value instanceof InetAddress address) {
            return address.getHostAddress();
        } else if (value instanceof BigDecimal d) {
            return d.toPlainString();
        } else if (value instanceof CharSequence
                || value instanceof UUID
                || value instanceof TemporalAccessor
                || value instanceof Number
                || value instanceof Boolean) {
            return value.toString();
        } else if (value instanceof Collection<?> || value instanceof Map<?, ?>) {
            return BackupJson.MAPPER.writeValueAsString(value);
        }
        return String.valueOf(value);
    }
}
