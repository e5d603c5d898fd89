package io.erasure.store.cassandra.read;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bytes Cassandra stores for a key value bound as {@code fromJson(?)}, computed here as Cassandra 5.0 computes
 * them: its JSON reader (Jackson's defaults: an integer becomes an {@code Integer}, a {@code Long} or a
 * {@code BigInteger}, a fraction a {@code Double}), then the column type's {@code fromJSONObject} and
 * {@code fromString}. A multi-key read returns rows, not one answer per term: these bytes tie a returned row
 * (whose key columns come back as stored) to the key that asked for it, however the caller spelled it
 * ({@code "+7"} and {@code 7} for a bigint, an upper-case UUID, a timestamp with an offset).
 *
 * <p>Only the types below are modelled; a key with any other column type is read key by key. Three outcomes:
 * the stored bytes; refused (Cassandra rejects the term, so the statement that carries it fails, as the point
 * read did); or node-dependent, where the node decides: a timestamp {@code "now"}, or one without a zone offset,
 * which the node reads in its own time zone. A node-dependent key is read on its own.
 */
final class StoredValue {

    /** What Cassandra makes of one key value: {@code bytes} only when {@code outcome} is {@link Outcome#STORED}. */
    record Parsed(Outcome outcome, ByteBuffer bytes) {

        static final Parsed REFUSED = new Parsed(Outcome.REFUSED, null);
        static final Parsed NODE_DEPENDENT = new Parsed(Outcome.NODE_DEPENDENT, null);
        static final Parsed EMPTY = stored(ByteBuffer.allocate(0));

        static Parsed stored(ByteBuffer bytes) {
            return new Parsed(Outcome.STORED, bytes.asReadOnlyBuffer());
        }
    }

    enum Outcome {
        STORED,
        REFUSED,
        NODE_DEPENDENT
    }

    private static final Set<Integer> MODELLED = Set.of(
            ProtocolConstants.DataType.ASCII,
            ProtocolConstants.DataType.VARCHAR,
            ProtocolConstants.DataType.BIGINT,
            ProtocolConstants.DataType.INT,
            ProtocolConstants.DataType.SMALLINT,
            ProtocolConstants.DataType.TINYINT,
            ProtocolConstants.DataType.VARINT,
            ProtocolConstants.DataType.DECIMAL,
            ProtocolConstants.DataType.UUID,
            ProtocolConstants.DataType.TIMEUUID,
            ProtocolConstants.DataType.BLOB,
            ProtocolConstants.DataType.BOOLEAN,
            ProtocolConstants.DataType.TIMESTAMP);

    // Cassandra's JSON reader is a default Jackson ObjectMapper: the same number types as a default JsonMapper
    private static final JsonMapper CASSANDRA_JSON = JsonMapper.builder().build();
    private static final ProtocolVersion VERSION = ProtocolVersion.DEFAULT;
    private static final Pattern UUID_FORM =
            Pattern.compile("[A-Fa-f0-9]{8}\\-[A-Fa-f0-9]{4}\\-[A-Fa-f0-9]{4}\\-[A-Fa-f0-9]{4}\\-[A-Fa-f0-9]{12}");
    private static final Pattern EPOCH_MILLIS = Pattern.compile("^-?\\d+$");

    private StoredValue() {}

    /** True if {@link #parse} models {@code type}. */
    static boolean modelled(DataType type) {
        return MODELLED.contains(type.getProtocolCode());
    }

    /** True if every value of {@code type} Cassandra accepts has node-independent bytes (all but timestamps). */
    static boolean nodeIndependent(DataType type) {
        return modelled(type) && type.getProtocolCode() != ProtocolConstants.DataType.TIMESTAMP;
    }

    /** What Cassandra makes of {@code json} (the text bound to {@code fromJson(?)}) for a column of {@code type}. */
    static Parsed parse(DataType type, String json) {
        if (!modelled(type)) {
            throw new IllegalArgumentException("no model of fromJson for " + type.asCql(true, true));
        }
        Object value;
        try {
            value = CASSANDRA_JSON.readValue(json, Object.class);
        } catch (JacksonException e) {
            return Parsed.REFUSED;
        }
        if (value == null) {
            return Parsed.REFUSED; // a null key is refused by Cassandra
        }
        try {
            return parse(type.getProtocolCode(), value);
        } catch (RuntimeException refused) {
            // what the type's fromString throws on, it refuses (NumberFormatException, IllegalArgumentException)
            return Parsed.REFUSED;
        }
    }

    private static Parsed parse(int code, Object value) {
        switch (code) {
            case ProtocolConstants.DataType.ASCII:
                return value instanceof String text && text.chars().allMatch(c -> c < 0x80)
                        ? Parsed.stored(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)))
                        : Parsed.REFUSED;
            case ProtocolConstants.DataType.VARCHAR:
                // a UTF-8 round trip, as the text travels: an unpaired surrogate arrives as '?'
                return value instanceof String text
                        ? Parsed.stored(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)))
                        : Parsed.REFUSED;
            case ProtocolConstants.DataType.BIGINT:
                if (value instanceof String text) {
                    return text.isEmpty() ? Parsed.EMPTY : stored(TypeCodecs.BIGINT, Long.parseLong(text));
                }
                return value instanceof Integer || value instanceof Long
                        ? stored(TypeCodecs.BIGINT, ((Number) value).longValue())
                        : Parsed.REFUSED;
            case ProtocolConstants.DataType.INT:
                if (value instanceof String text) {
                    return text.isEmpty() ? Parsed.EMPTY : stored(TypeCodecs.INT, Integer.parseInt(text));
                }
                return value instanceof Integer number ? stored(TypeCodecs.INT, number) : Parsed.REFUSED;
            case ProtocolConstants.DataType.SMALLINT:
                return wholeNumberText(value, text -> stored(TypeCodecs.SMALLINT, Short.parseShort(text)));
            case ProtocolConstants.DataType.TINYINT:
                return wholeNumberText(value, text -> stored(TypeCodecs.TINYINT, Byte.parseByte(text)));
            case ProtocolConstants.DataType.VARINT:
                return stored(TypeCodecs.VARINT, new BigInteger(value.toString()));
            case ProtocolConstants.DataType.DECIMAL: {
                String text = Objects.toString(value);
                return text.isEmpty() ? Parsed.EMPTY : stored(TypeCodecs.DECIMAL, new BigDecimal(text));
            }
            case ProtocolConstants.DataType.UUID:
            case ProtocolConstants.DataType.TIMEUUID:
                if (!(value instanceof String text)) {
                    return Parsed.REFUSED;
                }
                if (text.isEmpty()) {
                    return Parsed.EMPTY;
                }
                UUID uuid = UUID_FORM.matcher(text).matches() ? UUID.fromString(text) : null;
                if (uuid == null || (code == ProtocolConstants.DataType.TIMEUUID && uuid.version() != 1)) {
                    return Parsed.REFUSED;
                }
                return stored(TypeCodecs.UUID, uuid);
            case ProtocolConstants.DataType.BLOB:
                if (value instanceof String text && text.startsWith("0x") && text.length() % 2 == 0) {
                    return Parsed.stored(ByteBuffer.wrap(HexFormat.of().parseHex(text, 2, text.length())));
                }
                return Parsed.REFUSED;
            case ProtocolConstants.DataType.BOOLEAN:
                if (value instanceof Boolean bool) {
                    return stored(TypeCodecs.BOOLEAN, bool);
                }
                if (value instanceof String text) {
                    // Cassandra reads "" as false
                    if (text.isEmpty() || text.equalsIgnoreCase("false")) {
                        return stored(TypeCodecs.BOOLEAN, false);
                    }
                    return text.equalsIgnoreCase("true") ? stored(TypeCodecs.BOOLEAN, true) : Parsed.REFUSED;
                }
                return Parsed.REFUSED;
            case ProtocolConstants.DataType.TIMESTAMP:
                return timestamp(value);
            default:
                throw new IllegalStateException("unmodelled type code " + code);
        }
    }

    /** smallint and tinyint read a string or any number through its {@code String.valueOf}. */
    private static Parsed wholeNumberText(Object value, Function<String, Parsed> parse) {
        if (!(value instanceof String) && !(value instanceof Number)) {
            return Parsed.REFUSED;
        }
        String text = String.valueOf(value);
        return text.isEmpty() ? Parsed.EMPTY : parse.apply(text);
    }

    private static <T> Parsed stored(TypeCodec<T> codec, T value) {
        return Parsed.stored(codec.encode(value, VERSION));
    }

    /**
     * A timestamp: a JSON long is milliseconds since the epoch (a number small enough to be an int is refused);
     * a string is {@code "now"}, digits (milliseconds), or a date and time tried against Cassandra's own formats
     * in its order. Only the forms with a zone offset give node-independent bytes: {@code 2024-01-02T03:04:05.678Z},
     * {@code ...+01:00}, {@code 2024-01-02+0100}, and Cassandra's own {@code 2024-01-02 03:04:05.678Z}. A form
     * without a zone is read in the node's time zone, and one with a zone name (after a second space, or after
     * a space with a {@code T}) in the node's locale: node-dependent.
     */
    private static Parsed timestamp(Object value) {
        if (value instanceof Long millis) {
            return stored(TypeCodecs.TIMESTAMP, Instant.ofEpochMilli(millis));
        }
        if (!(value instanceof String text)) {
            return Parsed.REFUSED;
        }
        if (text.isEmpty()) {
            return Parsed.EMPTY;
        }
        if (text.equalsIgnoreCase("now")) {
            return Parsed.NODE_DEPENDENT;
        }
        if (EPOCH_MILLIS.matcher(text).matches()) {
            return stored(TypeCodecs.TIMESTAMP, Instant.ofEpochMilli(Long.parseLong(text)));
        }
        int space = text.indexOf(' ');
        if (space < 0) {
            // every form that can match is tried, so none matching means Cassandra refuses the string too
            return firstMatch(NO_SPACE_FORMS, text, Parsed.REFUSED);
        }
        if (text.indexOf(' ', space + 1) < 0 && text.indexOf('T') < 0) {
            // the forms with a zone name need a second space, or a 'T' before the space; none matching: the node's say
            return firstMatch(ONE_SPACE_FORMS, text, Parsed.NODE_DEPENDENT);
        }
        return Parsed.NODE_DEPENDENT;
    }

    private static Parsed firstMatch(List<TimestampForm> forms, String text, Parsed otherwise) {
        for (TimestampForm form : forms) {
            try {
                long millis =
                        ZonedDateTime.parse(text, form.formatter()).toInstant().toEpochMilli();
                return form.inNodeZone()
                        ? Parsed.NODE_DEPENDENT
                        : stored(TypeCodecs.TIMESTAMP, Instant.ofEpochMilli(millis));
            } catch (DateTimeParseException notThisForm) {
                // the next, in Cassandra's order
            }
        }
        return otherwise;
    }

    private record TimestampForm(DateTimeFormatter formatter, boolean inNodeZone) {}

    /*
     * Cassandra 5.0's TimestampSerializer tries, in order: for "y-M-d'T'H:m[:s]" then "y-M-d H:m[:s]" (each with a
     * fraction of up to 9 digits) no zone (the node's), " z", " zzzz", " X", "X", "XXX"; then "yyyy-MM-dd" with
     * the same five zones; then ISO_DATE (the node's zone). A string without a space can match only the forms
     * below, in this order; one with a single space and no 'T' can match the ones after it first.
     */
    private static final String DATE_T_TIME = "y-M-d'T'H:m[:s]";
    private static final String DATE_SPACE_TIME = "y-M-d H:m[:s]";
    private static final List<TimestampForm> NO_SPACE_FORMS = List.of(
            dateTime(DATE_T_TIME, null),
            dateTime(DATE_T_TIME, "X"),
            dateTime(DATE_T_TIME, "XXX"),
            date("X"),
            date("XXX"),
            new TimestampForm(
                    new DateTimeFormatterBuilder()
                            .append(DateTimeFormatter.ISO_DATE)
                            .parseDefaulting(ChronoField.NANO_OF_DAY, 0)
                            .toFormatter()
                            .withZone(ZoneId.systemDefault()),
                    true));
    private static final List<TimestampForm> ONE_SPACE_FORMS =
            List.of(dateTime(DATE_SPACE_TIME, null), dateTime(DATE_SPACE_TIME, "X"), dateTime(DATE_SPACE_TIME, "XXX"));

    private static TimestampForm dateTime(String pattern, String zone) {
        DateTimeFormatterBuilder builder = new DateTimeFormatterBuilder()
                .appendPattern(pattern)
                .appendFraction(ChronoField.MILLI_OF_SECOND, 0, 9, true);
        return zone == null
                ? new TimestampForm(builder.toFormatter().withZone(ZoneId.systemDefault()), true)
                : new TimestampForm(builder.appendPattern(zone).toFormatter(), false);
    }

    private static TimestampForm date(String zone) {
        return new TimestampForm(
                new DateTimeFormatterBuilder()
                        .appendPattern("yyyy-MM-dd")
                        .appendPattern(zone)
                        .parseDefaulting(ChronoField.NANO_OF_DAY, 0)
                        .toFormatter(),
                false);
    }
}
