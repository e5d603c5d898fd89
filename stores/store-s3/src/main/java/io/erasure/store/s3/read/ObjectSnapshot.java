package io.erasure.store.s3.read;

import io.erasure.model.record.ColumnValue;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One object of a row as the deletion record keeps it: a column {@code object_<n>} whose value is a JSON-able map
 * {@code {key, etag, lastModified, size, contentType, userMetadata, [cacheControl, contentEncoding,
 * contentDisposition, contentLanguage,] base64 | retainedBucket + retainedRef}}. Exactly one of {@code base64} (the
 * content, for objects up to {@code inline-max-bytes}) and {@code retainedRef} (the key of a server-side copy in
 * {@code retainedBucket}, made before the delete) is set.
 */
public record ObjectSnapshot(
        String key,
        String etag,
        Instant lastModified,
        long size,
        String contentType,
        Map<String, String> userMetadata,
        Map<String, String> headers,
        String base64,
        String retainedBucket,
        String retainedRef) {

    /** Column names are identifiers, so objects are numbered; the map keeps the object's key. */
    public static final String COLUMN_PREFIX = "object_";
    /** System metadata restored with the object besides its content type. */
    static final List<String> HEADERS =
            List.of("cacheControl", "contentEncoding", "contentDisposition", "contentLanguage");

    public ObjectSnapshot {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(etag, "etag");
        Objects.requireNonNull(lastModified, "lastModified");
        userMetadata = userMetadata == null ? Map.of() : Map.copyOf(userMetadata);
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        if ((base64 == null) == (retainedRef == null)) {
            throw new IllegalArgumentException(
                    "object snapshot of '" + key + "' needs exactly one of base64 content" + " and a retainedRef");
        }
        if (retainedRef != null && retainedBucket == null) {
            throw new IllegalArgumentException(
                    "object snapshot of '" + key + "' has a retainedRef without its retainedBucket");
        }
    }

    public boolean inline() {
        return base64 != null;
    }

    public byte[] content() {
        return Base64.getDecoder().decode(base64);
    }

    public ColumnValue toColumn(int index) {
        return ColumnValue.of(COLUMN_PREFIX + index, toMap());
    }

    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("key", key);
        map.put("etag", etag);
        map.put("lastModified", lastModified.toString());
        map.put("size", size);
        map.put("contentType", contentType);
        map.put("userMetadata", new TreeMap<>(userMetadata));
        new TreeMap<>(headers).forEach(map::put);
        if (inline()) {
            map.put("base64", base64);
        } else {
            map.put("retainedBucket", retainedBucket);
            map.put("retainedRef", retainedRef);
        }
        return map;
    }

    /** True for the columns this adapter writes. */
    public static boolean isObjectColumn(ColumnValue column) {
        return column.name().startsWith(COLUMN_PREFIX);
    }

    /**
     * The snapshot a record's column holds, as written by {@link #toMap} and read back from JSON (numbers may come
     * back as any {@link Number}).
     *
     * @throws IllegalArgumentException naming what is missing or malformed
     */
    public static ObjectSnapshot fromColumn(ColumnValue column) {
        if (!(column.value() instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("column '" + column.name() + "' is not an S3 object snapshot");
        }
        try {
            Map<String, String> headers = new LinkedHashMap<>();
            for (String header : HEADERS) {
                if (map.get(header) != null) {
                    headers.put(header, map.get(header).toString());
                }
            }
            return new ObjectSnapshot(
                    text(map, "key"),
                    text(map, "etag"),
                    Instant.parse(text(map, "lastModified")),
                    ((Number) map.get("size")).longValue(),
                    optional(map, "contentType"),
                    metadata(map.get("userMetadata")),
                    headers,
                    optional(map, "base64"),
                    optional(map, "retainedBucket"),
                    optional(map, "retainedRef"));
        } catch (ClassCastException | NullPointerException | DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "column '" + column.name() + "' is not a valid S3 object snapshot: " + e.getMessage(), e);
        }
    }

    private static String text(Map<?, ?> map, String field) {
        Object value = map.get(field);
        if (value == null) {
            throw new IllegalArgumentException("S3 object snapshot lacks '" + field + "'");
        }
        return value.toString();
    }

    private static String optional(Map<?, ?> map, String field) {
        Object value = map.get(field);
        return value == null ? null : value.toString();
    }

    private static Map<String, String> metadata(Object value) {
        Map<String, String> metadata = new LinkedHashMap<>();
        if (value instanceof Map<?, ?> map) {
            map.forEach((name, text) -> metadata.put(String.valueOf(name), String.valueOf(text)));
        }
        return metadata;
    }
}
