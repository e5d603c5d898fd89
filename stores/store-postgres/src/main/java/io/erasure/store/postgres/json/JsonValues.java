package io.erasure.store.postgres.json;

import io.erasure.store.postgres.schema.ColumnInfo;
import io.erasure.store.postgres.schema.TableSchema;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Values in their JSON form, as the SPI carries them, to and from PostgreSQL's {@code jsonb}.
 *
 * <p>Rows are read with {@code to_jsonb(t)} and written (keys bound, rows restored) with
 * {@code jsonb_populate_record(NULL::table, doc)}, so PostgreSQL itself converts each value to and from the
 * column's type, whatever it is. The one difference between the two JSON forms is {@code bytea}: PostgreSQL
 * writes {@code "\\x0102"}, the SPI carries base64; it is converted here. Decimals are read as
 * {@link java.math.BigDecimal} so that a {@code numeric} survives the round trip exactly.
 */
public final class JsonValues {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();
    private static final TypeReference<LinkedHashMap<String, Object>> ROW = new TypeReference<>() {};

    private JsonValues() {}

    /**
     * A JSON array of row documents (keys, or keys with a planned version), in order, for {@code jsonb_array_elements}.
     */
    public static String documents(TableSchema table, List<? extends Map<String, ?>> rows) {
        List<Map<String, Object>> converted = new ArrayList<>(rows.size());
        rows.forEach(row -> converted.add(toStore(table, row)));
        return MAPPER.writeValueAsString(converted);
    }

    /** One row document for {@code jsonb_populate_record}. */
    public static String document(TableSchema table, Map<String, ?> row) {
        return MAPPER.writeValueAsString(toStore(table, row));
    }

    /** A row read with {@code to_jsonb(t)}, values in the SPI's JSON form, columns in table order. */
    public static Map<String, Object> row(TableSchema table, String json) {
        Map<String, Object> stored = MAPPER.readValue(json, ROW);
        // jsonb orders keys by length: put them back in table order
        Map<String, Object> row = new LinkedHashMap<>();
        for (ColumnInfo column : table.columns()) {
            Object value = stored.remove(column.name());
            if (column.isBytea() && value instanceof String hex && hex.startsWith("\\x")) {
                value = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex.substring(2)));
            }
            row.put(column.name(), value);
        }
        row.putAll(stored);
        return row;
    }

    private static Map<String, Object> toStore(TableSchema table, Map<String, ?> row) {
        Map<String, Object> converted = new LinkedHashMap<>(row);
        for (ColumnInfo column : table.columns()) {
            if (!column.isBytea()) {
                continue;
            }
            Object value = converted.get(column.name());
            if (value instanceof byte[] bytes) {
                converted.put(column.name(), "\\x" + HexFormat.of().formatHex(bytes));
            } else if (value instanceof String base64 && !base64.startsWith("\\x")) {
                converted.put(
                        column.name(),
                        "\\x" + HexFormat.of().formatHex(Base64.getDecoder().decode(base64)));
            }
        }
        return converted;
    }
}
