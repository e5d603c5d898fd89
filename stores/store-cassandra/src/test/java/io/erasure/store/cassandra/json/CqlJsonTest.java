package io.erasure.store.cassandra.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.type.DataTypes;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CqlJsonTest {

    @Test
    void blobsAreBase64OnThePlatformAndHexInCassandra() {
        assertThat(CqlJson.fromCassandraJson(DataTypes.BLOB, "\"0xcafe\"")).isEqualTo("yv4=");
        assertThat(CqlJson.toCassandraJson("k", DataTypes.BLOB, "yv4=")).isEqualTo("\"0xcafe\"");
    }

    @Test
    void timestampsBecomeIsoInstants() {
        assertThat(CqlJson.fromCassandraJson(DataTypes.TIMESTAMP, "\"2023-11-14 22:13:20.123Z\""))
                .isEqualTo("2023-11-14T22:13:20.123Z");
    }

    @Test
    void decimalsTravelAsStringsSoNoJsonReaderLosesADigit() {
        String precise = "123456789012345678901234567890.123456789";
        assertThat(CqlJson.fromCassandraJson(DataTypes.DECIMAL, precise)).isEqualTo(precise);
        assertThat(CqlJson.fromCassandraJson(DataTypes.DECIMAL, "1.50")).isEqualTo("1.50");
        assertThat(CqlJson.toCassandraJson("d", DataTypes.DECIMAL, precise)).isEqualTo("\"" + precise + "\"");
        assertThat(CqlJson.toCassandraJson("d", DataTypes.DECIMAL, new BigDecimal(precise)))
                .isEqualTo("\"" + precise + "\"");
        assertThat(CqlJson.toCassandraJson("v", DataTypes.VARINT, 12L)).isEqualTo("\"12\"");
    }

    @Test
    void nestedBlobsAreConvertedInsideCollections() {
        var type = DataTypes.mapOf(DataTypes.BLOB, DataTypes.listOf(DataTypes.BLOB));
        Object platform = CqlJson.fromCassandraJson(type, "{\"0xca\": [\"0xfe\"]}");

        assertThat(platform).isEqualTo(Map.of("yg==", List.of("/g==")));
        assertThat(CqlJson.toCassandraJson("m", type, platform)).isEqualTo("{\"0xca\":[\"0xfe\"]}");
    }

    @Test
    void nonFiniteFloatingPointTravelsAsStrings() {
        assertThat(NonFiniteFloats.fromNativeFloatingPoint(Double.NaN)).isEqualTo("NaN");
        assertThat(CqlJson.toCassandraJson("d", DataTypes.DOUBLE, Double.NEGATIVE_INFINITY))
                .isEqualTo("\"-Infinity\"");
        assertThat(NonFiniteFloats.fromNativeFloatingPoint(1.5)).isEqualTo(1.5);
    }

    @Test
    void aValueOfTheWrongShapeIsRefusedNamingTheColumn() {
        assertThatThrownBy(() -> CqlJson.toCassandraJson("key.tags", DataTypes.listOf(DataTypes.TEXT), "not a list"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key.tags");
        assertThatThrownBy(() -> CqlJson.toCassandraJson("key.payload", DataTypes.BLOB, "%%%"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("base64");
    }

    @Test
    void aQuoteInAValueStaysInsideTheJsonString() {
        assertThat(CqlJson.toCassandraJson("key.name", DataTypes.TEXT, "x\"); DROP TABLE t; --"))
                .isEqualTo("\"x\\\"); DROP TABLE t; --\"");
    }
}
