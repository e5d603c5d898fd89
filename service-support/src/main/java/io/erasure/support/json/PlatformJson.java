package io.erasure.support.json;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * How the platform reads its own JSON: deletion records on {@code erasure.deletion.log}, their key and columns in the
 * log, keys in tasks, candidates and recovery requests. Every service's {@link JsonMapper} is built with it
 * ({@link PlatformJsonAutoConfiguration}); anything outside Spring that reads those documents uses {@link #mapper()}.
 *
 * <p>Numbers are read exactly. A JSON number with a fraction or an exponent becomes a {@link java.math.BigDecimal}
 * holding the digits as written (PostgreSQL's {@code 12345678901234567.891}, a {@code jsonb} document's
 * {@code 1.000}), never a {@code double}, which would round the first and drop the scale of the second, and a restore
 * would write the rounded value back. Whole numbers are read as before: {@code Integer}, {@code Long} or
 * {@code BigInteger}, whichever holds them. The written form is unchanged (a {@code BigDecimal} is written with all
 * its digits), so records written before this setting read exactly too, as long as they are still as written: on the
 * topic, or in S3 under {@code retained/}.
 */
public final class PlatformJson {

    private PlatformJson() {}

    /** {@code builder} with the platform's settings. */
    public static JsonMapper.Builder configure(JsonMapper.Builder builder) {
        return builder.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    }

    /** A mapper with the platform's settings and Jackson's defaults otherwise. */
    public static JsonMapper mapper() {
        return configure(JsonMapper.builder()).build();
    }
}
