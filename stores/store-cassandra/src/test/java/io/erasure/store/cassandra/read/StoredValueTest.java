package io.erasure.store.cassandra.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.erasure.store.cassandra.json.CqlJson;
import io.erasure.store.cassandra.read.StoredValue.Outcome;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What Cassandra 5.0's {@code fromJson} stores for a key value, as the adapter binds it ({@link CqlJson}): each
 * expectation below is what the node answered to the same text (checked against the local node, and again by
 * {@code CassandraMultiKeyReadIT}).
 */
class StoredValueTest {

    private static final ProtocolVersion V = ProtocolVersion.DEFAULT;

    @Test
    void aBigintIsTheSameRowHoweverItIsSpelled() {
        ByteBuffer seven = TypeCodecs.BIGINT.encode(7L, V);
        assertThat(stored(DataTypes.BIGINT, 7)).isEqualTo(seven);
        assertThat(stored(DataTypes.BIGINT, 7L)).isEqualTo(seven);
        assertThat(stored(DataTypes.BIGINT, new BigDecimal("7"))).isEqualTo(seven);
        assertThat(stored(DataTypes.BIGINT, "+7")).isEqualTo(seven);
        assertThat(stored(DataTypes.BIGINT, "007")).isEqualTo(seven);
    }

    @Test
    void aNumberCassandraRefusesIsRefused() {
        // "Expected a bigint value, but got a Double: 1.0": the whole statement fails, as the point read did
        assertThat(outcome(DataTypes.BIGINT, new BigDecimal("1.0"))).isEqualTo(Outcome.REFUSED);
        assertThat(outcome(DataTypes.BIGINT, 1.5)).isEqualTo(Outcome.REFUSED);
        assertThat(outcome(DataTypes.BIGINT, "abc")).isEqualTo(Outcome.REFUSED);
        assertThat(outcome(DataTypes.INT, 3_000_000_000L)).isEqualTo(Outcome.REFUSED);
        assertThat(outcome(DataTypes.TEXT, 5)).isEqualTo(Outcome.REFUSED);
        assertThat(outcome(DataTypes.TIMESTAMP, 5)).isEqualTo(Outcome.REFUSED);
    }

    @Test
    void smallNumbersAreReadThroughTheirText() {
        assertThat(stored(DataTypes.SMALLINT, 7)).isEqualTo(TypeCodecs.SMALLINT.encode((short) 7, V));
        assertThat(stored(DataTypes.TINYINT, "-3")).isEqualTo(TypeCodecs.TINYINT.encode((byte) -3, V));
        assertThat(outcome(DataTypes.TINYINT, 300)).isEqualTo(Outcome.REFUSED);
    }

    @Test
    void decimalsAndVarintsKeepEveryDigitAndADecimalItsScale() {
        assertThat(stored(DataTypes.DECIMAL, "1.50")).isEqualTo(TypeCodecs.DECIMAL.encode(new BigDecimal("1.50"), V));
        assertThat(stored(DataTypes.DECIMAL, "1.50")).isNotEqualTo(stored(DataTypes.DECIMAL, "1.5"));
        assertThat(stored(DataTypes.VARINT, new BigInteger("123456789012345678901234567890")))
                .isEqualTo(TypeCodecs.VARINT.encode(new BigInteger("123456789012345678901234567890"), V));
    }

    @Test
    void uuidsIgnoreCaseAndTimeuuidsMustBeVersionOne() {
        UUID uuid = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
        assertThat(stored(DataTypes.UUID, "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"))
                .isEqualTo(TypeCodecs.UUID.encode(uuid, V));
        assertThat(stored(DataTypes.TIMEUUID, uuid.toString())).isEqualTo(TypeCodecs.UUID.encode(uuid, V));
        assertThat(outcome(DataTypes.TIMEUUID, "ffffffff-0000-4000-8000-00000000000a"))
                .isEqualTo(Outcome.REFUSED);
        assertThat(outcome(DataTypes.UUID, "6ba7b8109dad11d180b400c04fd430c8")).isEqualTo(Outcome.REFUSED);
    }

    @Test
    void blobsComeAsBase64AndAreStoredAsTheirBytes() {
        assertThat(stored(DataTypes.BLOB, "yv4=")).isEqualTo(ByteBuffer.wrap(new byte[] {(byte) 0xca, (byte) 0xfe}));
    }

    @Test
    void booleansAcceptTheirNamesAndCassandraReadsTheEmptyStringAsFalse() {
        assertThat(stored(DataTypes.BOOLEAN, true)).isEqualTo(TypeCodecs.BOOLEAN.encode(true, V));
        assertThat(stored(DataTypes.BOOLEAN, "TRUE")).isEqualTo(TypeCodecs.BOOLEAN.encode(true, V));
        assertThat(stored(DataTypes.BOOLEAN, "")).isEqualTo(TypeCodecs.BOOLEAN.encode(false, V));
    }

    @Test
    void textIsItsUtf8() {
        assertThat(stored(DataTypes.TEXT, "Zo\u00eb \uD83D\uDE00"))
                .isEqualTo(TypeCodecs.TEXT.encode("Zo\u00eb \uD83D\uDE00", V));
        assertThat(stored(DataTypes.TEXT, "")).isEqualTo(ByteBuffer.allocate(0));
    }

    @Test
    void aTimestampWithAnOffsetIsTheSameMillisecondWhateverItsForm() {
        ByteBuffer millis = TypeCodecs.TIMESTAMP.encode(Instant.parse("2024-02-29T12:34:56.789Z"), V);
        assertThat(stored(DataTypes.TIMESTAMP, "2024-02-29T12:34:56.789Z")).isEqualTo(millis);
        assertThat(stored(DataTypes.TIMESTAMP, "2024-02-29T13:34:56.789+01:00")).isEqualTo(millis);
        assertThat(stored(DataTypes.TIMESTAMP, "2024-02-29T13:34:56.789+0100")).isEqualTo(millis);
        assertThat(stored(DataTypes.TIMESTAMP, "2024-02-29 12:34:56.789Z")).isEqualTo(millis); // toJson's own form
        assertThat(stored(DataTypes.TIMESTAMP, "2024-02-29T12:34:56.789999Z")).isEqualTo(millis); // cut to the ms
        assertThat(stored(DataTypes.TIMESTAMP, "1709210096789")).isEqualTo(millis);
        assertThat(stored(DataTypes.TIMESTAMP, 1_709_210_096_789L)).isEqualTo(millis);
        assertThat(stored(DataTypes.TIMESTAMP, "2024-02-29Z"))
                .isEqualTo(TypeCodecs.TIMESTAMP.encode(Instant.parse("2024-02-29T00:00:00Z"), V));
    }

    @Test
    void aTimestampTheNodeReadsInItsOwnZoneOrLocaleIsNodeDependent() {
        assertThat(outcome(DataTypes.TIMESTAMP, "now")).isEqualTo(Outcome.NODE_DEPENDENT);
        assertThat(outcome(DataTypes.TIMESTAMP, "2024-02-29T12:34:56.789")).isEqualTo(Outcome.NODE_DEPENDENT);
        assertThat(outcome(DataTypes.TIMESTAMP, "2024-02-29 12:34:56")).isEqualTo(Outcome.NODE_DEPENDENT);
        assertThat(outcome(DataTypes.TIMESTAMP, "2024-02-29")).isEqualTo(Outcome.NODE_DEPENDENT);
        assertThat(outcome(DataTypes.TIMESTAMP, "2024-02-29 12:34:56 UTC")).isEqualTo(Outcome.NODE_DEPENDENT);
        assertThat(outcome(DataTypes.TIMESTAMP, "yesterday")).isEqualTo(Outcome.REFUSED);
    }

    @Test
    void onlyScalarTypesWithAKnownFromJsonAreModelled() {
        assertThat(StoredValue.modelled(DataTypes.TIMESTAMP)).isTrue();
        assertThat(StoredValue.nodeIndependent(DataTypes.TIMESTAMP)).isFalse();
        assertThat(StoredValue.nodeIndependent(DataTypes.BIGINT)).isTrue();
        assertThat(StoredValue.modelled(DataTypes.DOUBLE)).isFalse();
        assertThat(StoredValue.modelled(DataTypes.DATE)).isFalse();
        assertThat(StoredValue.modelled(DataTypes.frozenListOf(DataTypes.INT))).isFalse();
    }

    private static ByteBuffer stored(DataType type, Object value) {
        StoredValue.Parsed parsed = StoredValue.parse(type, CqlJson.toCassandraJson("k", type, value));
        assertThat(parsed.outcome()).as("outcome for %s", value).isEqualTo(Outcome.STORED);
        return parsed.bytes();
    }

    private static Outcome outcome(DataType type, Object value) {
        return StoredValue.parse(type, CqlJson.toCassandraJson("k", type, value))
                .outcome();
    }
}
