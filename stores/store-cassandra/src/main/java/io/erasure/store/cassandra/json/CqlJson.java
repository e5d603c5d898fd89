package io.erasure.store.cassandra.json;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.VectorType;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts values between the platform's JSON form (what keys and {@code ColumnValue}s carry: numbers,
 * strings, booleans, lists and maps; blobs as base64, timestamps as ISO-8601 strings) and Cassandra's own
 * JSON form (what {@code toJson(col)} returns and {@code fromJson(?)} / {@code INSERT JSON} accept), guided
 * by the column's CQL type, so that Cassandra's codecs do the actual encoding.
 *
 * <p>Where the two forms differ: blobs ({@code "0xcafe"} vs base64), timestamps ({@code "2024-01-02 03:04:05.678Z"}
 * vs ISO-8601), and decimals, which the platform carries as strings ({@code "123.450"}): a JSON reader that is
 * not told otherwise turns a number into a double and loses digits, and so does {@code fromJson} for a bare
 * number in a {@code decimal} column; decimals and varints are handed to Cassandra as strings for that reason.
 * Non-finite floats and doubles, which {@code toJson} turns into {@code null}, travel as the strings
 * {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}; see {@link NonFiniteFloats}.
 */
public final class CqlJson {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final DateTimeFormatter CASSANDRA_TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);
    private static final HexFormat HEX = HexFormat.of();

    private CqlJson() {}

    // --- Cassandra -> platform ---

    /** The platform value of a {@code toJson(col)} result; null for a null cell. */
    public static Object fromCassandraJson(DataType type, String json) {
        if (json == null) {
            return null;
        }
        try {
            return toPlatform(type, MAPPER.readTree(json));
        } catch (JacksonException e) {
            throw new IllegalStateException(
                    "Cassandra returned JSON that cannot be parsed for a " + type.asCql(true, true) + " column: "
                            + e.getOriginalMessage(),
                    e);
        }
    }

    private static Object toPlatform(DataType type, JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        switch (type.getProtocolCode()) {
            case ProtocolConstants.DataType.BLOB:
                return base64(hexBytes(node.asString()));
            case ProtocolConstants.DataType.TIMESTAMP:
                return isoTimestamp(node.asString());
            case ProtocolConstants.DataType.DECIMAL:
                return node.isNumber() ? node.decimalValue().toString() : node.asString();
            case ProtocolConstants.DataType.LIST:
                return elements(((ListType) type).getElementType(), node);
            case ProtocolConstants.DataType.SET:
                return elements(((SetType) type).getElementType(), node);
            case ProtocolConstants.DataType.MAP:
                return entries((MapType) type, node);
            case ProtocolConstants.DataType.TUPLE:
                return components((TupleType) type, node);
            case ProtocolConstants.DataType.UDT:
                return fields((UserDefinedType) type, node);
            default:
                if (type instanceof VectorType vector) {
                    return elements(vector.getElementType(), node);
                }
                return scalar(node);
        }
    }

    private static List<Object> elements(DataType elementType, JsonNode array) {
        List<Object> values = new ArrayList<>(array.size());
        for (JsonNode element : array.values()) {
            values.add(toPlatform(elementType, element));
        }
        return values;
    }

    private static List<Object> components(TupleType type, JsonNode array) {
        List<DataType> types = type.getComponentTypes();
        List<Object> values = new ArrayList<>(types.size());
        int i = 0;
        for (JsonNode element : array.values()) {
            values.add(toPlatform(types.get(i++), element));
        }
        return values;
    }

    private static Map<String, Object> entries(MapType type, JsonNode object) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : object.properties()) {
            values.put(
                    platformMapKey(type.getKeyType(), entry.getKey()),
                    toPlatform(type.getValueType(), entry.getValue()));
        }
        return values;
    }

    private static Map<String, Object> fields(UserDefinedType type, JsonNode object) {
        Map<String, Object> values = new LinkedHashMap<>();
        List<CqlIdentifier> names = type.getFieldNames();
        for (int i = 0; i < names.size(); i++) {
            JsonNode field = object.get(names.get(i).asInternal());
            if (field == null) {
                field = object.get(names.get(i).asCql(true));
            }
            values.put(
                    names.get(i).asInternal(), toPlatform(type.getFieldTypes().get(i), field));
        }
        return values;
    }

    private static String platformMapKey(DataType keyType, String key) {
        return switch (keyType.getProtocolCode()) {
            case ProtocolConstants.DataType.BLOB -> base64(hexBytes(key));
            case ProtocolConstants.DataType.TIMESTAMP -> isoTimestamp(key);
            default -> key;
        };
    }

    private static Object scalar(JsonNode node) {
        if (node.isNumber()) {
            return node.numberValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isString()) {
            return node.stringValue();
        }
        return MAPPER.convertValue(node, Object.class);
    }

    // --- platform -> Cassandra ---

    /** The JSON text {@code fromJson(?)} needs for {@code value} in a column of {@code type}. */
    public static String toCassandraJson(String column, DataType type, Object value) {
        return MAPPER.writeValueAsString(toCassandra(column, type, value));
    }

    /** A JSON object for {@code INSERT ... JSON ?}: column name to Cassandra JSON value. */
    public static String toCassandraJsonObject(Map<String, Object> values, Map<String, DataType> types) {
        ObjectNode row = NODES.objectNode();
        values.forEach((column, value) -> row.set(column, toCassandra(column, types.get(column), value)));
        return MAPPER.writeValueAsString(row);
    }

    private static JsonNode toCassandra(String path, DataType type, Object value) {
        if (value == null) {
            return NODES.nullNode();
        }
        switch (type.getProtocolCode()) {
            case ProtocolConstants.DataType.BLOB:
                return NODES.stringNode("0x" + HEX.formatHex(blobBytes(path, value)));
            case ProtocolConstants.DataType.DECIMAL:
                return NODES.stringNode(exactNumber(path, value, "decimal").toString());
            case ProtocolConstants.DataType.VARINT:
                return NODES.stringNode(wholeNumber(path, value).toString());
            case ProtocolConstants.DataType.LIST:
                return array(path, ((ListType) type).getElementType(), value);
            case ProtocolConstants.DataType.SET:
                return array(path, ((SetType) type).getElementType(), value);
            case ProtocolConstants.DataType.MAP:
                return object(path, (MapType) type, value);
            case ProtocolConstants.DataType.TUPLE:
                return tuple(path, (TupleType) type, value);
            case ProtocolConstants.DataType.UDT:
                return udt(path, (UserDefinedType) type, value);
            default:
                if (type instanceof VectorType vector) {
                    return array(path, vector.getElementType(), value);
                }
                return scalarNode(path, value);
        }
    }

    private static ArrayNode array(String path, DataType elementType, Object value) {
        ArrayNode array = NODES.arrayNode();
        int i = 0;
        for (Object element : collection(path, value)) {
            array.add(toCassandra(path + "[" + i++ + "]", elementType, element));
        }
        return array;
    }

    private static ArrayNode tuple(String path, TupleType type, Object value) {
        Collection<?> elements = collection(path, value);
        List<DataType> types = type.getComponentTypes();
        if (elements.size() != types.size()) {
            throw new IllegalArgumentException(
                    path + " must be a list of " + types.size() + " tuple components, got " + elements.size());
        }
        ArrayNode array = NODES.arrayNode();
        int i = 0;
        for (Object element : elements) {
            array.add(toCassandra(path + "[" + i + "]", types.get(i), element));
            i++;
        }
        return array;
    }

    private static ObjectNode object(String path, MapType type, Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(path + " must be a JSON object for a " + type.asCql(true, true)
                    + " column, got " + value.getClass().getSimpleName());
        }
        ObjectNode object = NODES.objectNode();
        map.forEach((key, element) -> {
            JsonNode keyNode = toCassandra(path + " key", type.getKeyType(), key);
            String keyText = keyNode.isString() ? keyNode.stringValue() : MAPPER.writeValueAsString(keyNode);
            object.set(keyText, toCassandra(path + "[" + key + "]", type.getValueType(), element));
        });
        return object;
    }

    private static ObjectNode udt(String path, UserDefinedType type, Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(path + " must be a JSON object of the fields of "
                    + type.getName().asInternal() + ", got " + value.getClass().getSimpleName());
        }
        ObjectNode object = NODES.objectNode();
        List<CqlIdentifier> names = type.getFieldNames();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i).asInternal();
            if (map.containsKey(name)) {
                object.set(
                        names.get(i).asCql(true),
                        toCassandra(path + "." + name, type.getFieldTypes().get(i), map.get(name)));
            }
        }
        return object;
    }

    private static JsonNode scalarNode(String path, Object value) {
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return NODES.numberNode(((Number) value).longValue());
        }
        if (value instanceof BigInteger big) {
            return NODES.numberNode(big);
        }
        if (value instanceof Double d) {
            return Double.isFinite(d) ? NODES.numberNode(d) : NODES.stringNode(d.toString());
        }
        if (value instanceof Float f) {
            return Float.isFinite(f) ? NODES.numberNode(new BigDecimal(f.toString())) : NODES.stringNode(f.toString());
        }
        if (value instanceof BigDecimal decimal) {
            return NODES.numberNode(decimal);
        }
        if (value instanceof CharSequence || value instanceof UUID || value instanceof TemporalAccessor) {
            return NODES.stringNode(value.toString());
        }
        if (value instanceof InetAddress address) {
            return NODES.stringNode(address.getHostAddress());
        }
        throw new IllegalArgumentException(path + " has a value of type "
                + value.getClass().getName() + " that has no JSON form; use a number, string, boolean, list or map");
    }

    // --- helpers ---

    private static Collection<?> collection(String path, Object value) {
        if (value instanceof Collection<?> collection) {
            return collection;
        }
        throw new IllegalArgumentException(
                path + " must be a JSON array, got " + value.getClass().getSimpleName());
    }

    private static BigDecimal exactNumber(String path, Object value, String cqlType) {
        try {
            if (value instanceof BigDecimal decimal) {
                return decimal;
            }
            if (value instanceof Number || value instanceof CharSequence) {
                return new BigDecimal(value.toString());
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(path + " must be a number (or a string holding one) for a " + cqlType
                + " column, got " + value.getClass().getSimpleName());
    }

    private static BigInteger wholeNumber(String path, Object value) {
        try {
            return exactNumber(path, value, "varint").toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(path + " must be a whole number for a varint column, got " + value);
        }
    }

    private static byte[] blobBytes(String path, Object value) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value instanceof CharSequence text) {
            try {
                return Base64.getDecoder().decode(text.toString());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(path + " is a blob and must be given as base64: " + e.getMessage());
            }
        }
        throw new IllegalArgumentException(path + " is a blob and must be given as a base64 string, got "
                + value.getClass().getSimpleName());
    }

    private static byte[] hexBytes(String cassandraBlob) {
        if (!cassandraBlob.startsWith("0x")) {
            throw new IllegalStateException("Cassandra returned a blob that does not start with 0x");
        }
        return HEX.parseHex(cassandraBlob, 2, cassandraBlob.length());
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static String isoTimestamp(String cassandraTimestamp) {
        try {
            return Instant.from(CASSANDRA_TIMESTAMP.parse(cassandraTimestamp)).toString();
        } catch (DateTimeParseException e) {
            return cassandraTimestamp; // not Cassandra's usual form: pass it on as it came
        }
    }
}
