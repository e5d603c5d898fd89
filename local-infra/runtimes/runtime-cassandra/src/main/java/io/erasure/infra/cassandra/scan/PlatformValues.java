package io.erasure.infra.cassandra.scan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Date;
import org.apache.cassandra.db.marshal.AbstractType;
import org.apache.cassandra.db.marshal.BytesType;
import org.apache.cassandra.db.marshal.DecimalType;
import org.apache.cassandra.db.marshal.DoubleType;
import org.apache.cassandra.db.marshal.FloatType;
import org.apache.cassandra.db.marshal.TimestampType;
import org.apache.cassandra.transport.ProtocolVersion;
import org.apache.cassandra.utils.ByteBufferUtil;

/**
 * Key values in the platform's JSON form, the one candidates carry to validation and deletion (store-cassandra's
 * {@code CqlJson} turns it back into Cassandra's for {@code fromJson}): Cassandra's own JSON but for blobs (base64,
 * not {@code 0x} hex), timestamps (ISO-8601, not {@code 2024-01-02 03:04:05.678Z}), decimals (strings, every digit
 * and the scale kept) and non-finite floats (the strings {@code NaN}, {@code Infinity}, {@code -Infinity}, where
 * Cassandra writes {@code null}). Numbers are read exactly, never through a double.
 */
final class PlatformValues {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private PlatformValues() {}

    /**
     * Whether a key column of {@code type} is spelled here: scalars only. Collections, tuples, user-defined types and
     * vectors as key columns are refused rather than guessed.
     */
    static boolean supported(AbstractType<?> type) {
        AbstractType<?> base = type.unwrap();
        return !base.isCollection() && !base.isTuple() && !base.isUDT() && !base.isVector() && !base.isCounter();
    }

    /** The platform's value of {@code value}, a non-empty cell or key component of {@code type}. */
    static Object of(AbstractType<?> type, ByteBuffer value) throws JsonProcessingException {
        AbstractType<?> base = type.unwrap();
        if (base instanceof BytesType) {
            return Base64.getEncoder().encodeToString(ByteBufferUtil.getArray(value));
        }
        if (base instanceof TimestampType timestamp) {
            return ((Date) timestamp.compose(value)).toInstant().toString();
        }
        if (base instanceof DecimalType decimal) {
            return ((BigDecimal) decimal.compose(value)).toString();
        }
        if (base instanceof FloatType || base instanceof DoubleType) {
            double number = ((Number) base.compose(value)).doubleValue();
            if (Double.isNaN(number)) {
                return "NaN";
            }
            if (Double.isInfinite(number)) {
                return number > 0 ? "Infinity" : "-Infinity";
            }
        }
        return MAPPER.readTree(base.toJSONString(value, ProtocolVersion.CURRENT));
    }
}
