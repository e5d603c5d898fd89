package io.erasure.backup.format;

import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.dataset.BackupFormat;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Reads every row of a part with full parsing: the simple, slow path for tools and tests (the
 * audit has its own streaming join). When opened with its manifest entry, reaching the end checks
 * the SHA-256 and the row count, and a mismatch throws {@link BackupIntegrityException}.
 */
public final class PartReader implements Closeable {

    private final ChecksummedInputStream raw;
    private final BufferedReader text;
    private final BackupFormat format;
    private final Map<String, String> types = new HashMap<>();
    private final ManifestPart part;
    private Csv.RecordReader csv;
    private List<String> header;
    private long rows;

    private PartReader(InputStream raw, BackupFormat format, BackupSchema schema, ManifestPart part) {
        this.raw = new ChecksummedInputStream(raw);
        this.format = format;
        this.part = part;
        for (ColumnSchema column : schema.columns()) {
            types.put(column.name(), column.type());
        }
        this.text = new BufferedReader(
                new InputStreamReader(open(format), StandardCharsets.UTF_8), PartCompression.BUFFER_SIZE);
    }

    private InputStream open(BackupFormat format) {
        try {
            return PartCompression.decompress(format, raw);
        } catch (BackupIntegrityException e) {
            if (part != null) {
                try {
                    raw.verify(part.name(), part.sha256());
                } catch (IOException io) {
                    throw new UncheckedIOException(io);
                }
            }
            throw new BackupIntegrityException("part " + name() + " is corrupt: " + e.getMessage(), e);
        }
    }

    /** @param part the manifest entry to verify against at the end, or null to skip verification */
    public static PartReader open(InputStream raw, BackupFormat format, BackupSchema schema, ManifestPart part) {
        return new PartReader(raw, format, schema, part);
    }

    /** The next row, or null after the last one (and after the part verified). */
    public BackupRow next() throws IOException {
        BackupRow row;
        try {
            row = format == BackupFormat.CSV ? nextCsv() : nextJson();
        } catch (BackupIntegrityException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw undecodable(e);
        }
        if (row != null) {
            rows++;
        } else if (part != null) {
            raw.verify(part.name(), part.sha256());
            if (rows != part.rowCount()) {
                throw new BackupIntegrityException(
                        "part " + part.name() + " has " + rows + " rows but its manifest says " + part.rowCount());
            }
        }
        return row;
    }

    public List<BackupRow> readAll() throws IOException {
        List<BackupRow> all = new ArrayList<>();
        for (BackupRow row = next(); row != null; row = next()) {
            all.add(row);
        }
        return all;
    }

    @Override
    public void close() throws IOException {
        text.close();
    }

    private BackupRow nextJson() throws IOException {
        String line;
        do {
            line = text.readLine();
        } while (line != null && line.isBlank());
        if (line == null) {
            return null;
        }
        JsonNode node = BackupJson.MAPPER.readTree(line);
        if (!node.isObject()) {
            throw new BackupIntegrityException("part " + name() + " line " + (rows + 1) + " is not a JSON object");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, Long> writeTimes = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            if (field.getKey().equals(BackupRow.WRITE_TIMES_FIELD)) {
                field.getValue()
                        .properties()
                        .forEach(e -> writeTimes.put(e.getKey(), e.getValue().longValue()));
            } else {
                values.put(field.getKey(), javaValue(field.getValue()));
            }
        }
        return new BackupRow(values, writeTimes);
    }

    private BackupRow nextCsv() throws IOException {
        if (csv == null) {
            csv = new Csv.RecordReader(text);
            header = csv.next();
            if (header == null) {
                throw new BackupIntegrityException("CSV part " + name() + " has no header record");
            }
        }
        List<String> fields = csv.next();
        if (fields == null) {
            return null;
        }
        if (fields.size() != header.size()) {
            throw new BackupIntegrityException("CSV part " + name() + " record " + (rows + 1) + " has " + fields.size()
                    + " fields but the header has " + header.size());
        }
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, Long> writeTimes = new LinkedHashMap<>();
        for (int i = 0; i < header.size(); i++) {
            String column = header.get(i);
            String field = fields.get(i);
            if (column.startsWith(BackupRow.CSV_WRITE_TIME_PREFIX)) {
                if (field != null) {
                    writeTimes.put(column.substring(BackupRow.CSV_WRITE_TIME_PREFIX.length()), Long.parseLong(field));
                }
            } else {
                values.put(column, typed(types.get(column), field));
            }
        }
        return new BackupRow(values, writeTimes);
    }

    /** A CSV field as the value its column type gives it. */
    public static Object typed(String type, String field) {
        if (field == null || type == null) {
            return field;
        }
        if (ColumnTypes.isIntegral(type)) {
            return Long.parseLong(field);
        }
        if (ColumnTypes.isDecimal(type)) {
            return new BigDecimal(field);
        }
        if (ColumnTypes.isBoolean(type)) {
            return field.equals("t") || Boolean.parseBoolean(field);
        }
        return field;
    }

    /** JSON integers become Long (BigInteger beyond), decimals BigDecimal, objects and arrays Map and List. */
    public static Object javaValue(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
        }
        if (node.isNumber()) {
            return node.decimalValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isString()) {
            return node.stringValue();
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>();
            node.values().forEach(element -> list.add(javaValue(element)));
            return list;
        }
        Map<String, Object> map = new LinkedHashMap<>();
        node.properties().forEach(e -> map.put(e.getKey(), javaValue(e.getValue())));
        return map;
    }

    /**
     * A part that cannot be decoded: if its bytes differ from the manifest's SHA-256 that is the
     * reason given; a read that fails again while checking is an I/O problem and propagates as such.
     */
    private BackupIntegrityException undecodable(Exception e) throws IOException {
        if (part != null) {
            raw.verify(part.name(), part.sha256());
        }
        return new BackupIntegrityException(
                "part " + name() + " is corrupt after " + rows + " rows: " + BackupJson.rootMessage(e), e);
    }

    private String name() {
        return part == null ? "(unnamed)" : part.name();
    }
}
