package io.erasure.store.cassandra.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.erasure.store.cassandra.CassandraFixtures;
import io.erasure.store.cassandra.json.CqlJson;
import io.erasure.store.cassandra.read.StoredValue.Outcome;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link StoredValue} against the node itself: each value is bound as the adapter binds a key
 * ({@code fromJson(?)} of {@link CqlJson}'s text) into a key column of its type, and the bytes the node stored must
 * be the bytes the model computed; a value the model calls refused must be refused by the node.
 */
class StoredValueIT {

    private static final AtomicInteger NEXT_PARTITION = new AtomicInteger();

    private static CqlSession direct;

    @BeforeAll
    static void open() {
        direct = CassandraFixtures.directSession();
        CassandraFixtures.createKeyspace(direct, "stored_values", 1);
        for (DataType type : List.of(
                DataTypes.BIGINT,
                DataTypes.INT,
                DataTypes.SMALLINT,
                DataTypes.TINYINT,
                DataTypes.VARINT,
                DataTypes.DECIMAL,
                DataTypes.UUID,
                DataTypes.TIMEUUID,
                DataTypes.BLOB,
                DataTypes.BOOLEAN,
                DataTypes.TEXT,
                DataTypes.ASCII,
                DataTypes.TIMESTAMP)) {
            // the value as a clustering column: an empty value is a legal clustering key, not a partition key
            direct.execute("CREATE TABLE IF NOT EXISTS stored_values." + table(type) + " (p int, k "
                    + type.asCql(false, false) + ", PRIMARY KEY (p, k))");
        }
    }

    @AfterAll
    static void close() {
        direct.close();
    }

    static Stream<Arguments> values() {
        return Stream.of(
                stored(DataTypes.BIGINT, 7),
                stored(DataTypes.BIGINT, "+7"),
                stored(DataTypes.BIGINT, "007"),
                stored(DataTypes.BIGINT, new BigDecimal("7")),
                stored(DataTypes.BIGINT, Long.MIN_VALUE),
                stored(DataTypes.BIGINT, "9223372036854775807"),
                stored(DataTypes.BIGINT, ""),
                refused(DataTypes.BIGINT, new BigDecimal("1.0")),
                refused(DataTypes.BIGINT, 1.5),
                refused(DataTypes.BIGINT, "abc"),
                refused(DataTypes.BIGINT, true),
                refused(DataTypes.BIGINT, new BigInteger("9223372036854775808")),
                stored(DataTypes.INT, -7),
                stored(DataTypes.INT, "12"),
                refused(DataTypes.INT, 3_000_000_000L),
                stored(DataTypes.SMALLINT, 7),
                stored(DataTypes.SMALLINT, "-8"),
                refused(DataTypes.SMALLINT, 40_000),
                stored(DataTypes.TINYINT, -3),
                stored(DataTypes.TINYINT, "127"),
                refused(DataTypes.TINYINT, 1.0),
                stored(DataTypes.VARINT, new BigInteger("-123456789012345678901234567890")),
                stored(DataTypes.VARINT, "5"),
                stored(DataTypes.DECIMAL, "1.50"),
                stored(DataTypes.DECIMAL, "-0.00"),
                stored(DataTypes.DECIMAL, "1E+3"),
                stored(DataTypes.DECIMAL, new BigDecimal("12345678901234567890.123456789")),
                stored(DataTypes.UUID, "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"),
                stored(DataTypes.UUID, "ffffffff-0000-4000-8000-00000000000a"),
                refused(DataTypes.UUID, "6ba7b8109dad11d180b400c04fd430c8"),
                refused(DataTypes.UUID, 5),
                stored(DataTypes.TIMEUUID, "50554d6e-29bb-11e5-b345-feff819cdc9f"),
                refused(DataTypes.TIMEUUID, "ffffffff-0000-4000-8000-00000000000a"),
                stored(DataTypes.BLOB, "yv4="),
                stored(DataTypes.BLOB, ""),
                stored(DataTypes.BOOLEAN, true),
                stored(DataTypes.BOOLEAN, "TRUE"),
                stored(DataTypes.BOOLEAN, ""),
                refused(DataTypes.BOOLEAN, "yes"),
                stored(DataTypes.TEXT, "Zo\u00eb \u2211 \uD83D\uDE00 \"quoted\" \\ back\nslash"),
                stored(DataTypes.TEXT, ""),
                refused(DataTypes.TEXT, 5),
                stored(DataTypes.ASCII, "plain"),
                refused(DataTypes.ASCII, "Zo\u00eb"),
                stored(DataTypes.TIMESTAMP, "2024-02-29T12:34:56.789Z"),
                stored(DataTypes.TIMESTAMP, "2024-02-29T13:34:56.789+01:00"),
                stored(DataTypes.TIMESTAMP, "2024-02-29T13:34:56.789+0100"),
                stored(DataTypes.TIMESTAMP, "2024-02-29T12:34:56Z"),
                stored(DataTypes.TIMESTAMP, "2024-02-29T12:34Z"),
                stored(DataTypes.TIMESTAMP, "2024-02-29 12:34:56.789Z"),
                stored(DataTypes.TIMESTAMP, "2024-02-29 13:34:56.789+01:00"),
                stored(DataTypes.TIMESTAMP, "2024-02-29T12:34:56.789999Z"),
                stored(DataTypes.TIMESTAMP, "2024-02-29T12:34:56.7Z"),
                stored(DataTypes.TIMESTAMP, "1709210096789"),
                stored(DataTypes.TIMESTAMP, "-1"),
                stored(DataTypes.TIMESTAMP, 1_709_210_096_789L),
                stored(DataTypes.TIMESTAMP, "2024-02-29Z"),
                stored(DataTypes.TIMESTAMP, "2024-02-29+01:00"),
                stored(DataTypes.TIMESTAMP, "2024-2-9T1:2:3Z"),
                refused(DataTypes.TIMESTAMP, 5),
                refused(DataTypes.TIMESTAMP, "yesterday"),
                refused(DataTypes.TIMESTAMP, "2024-02-29T12:34:56.789Z\t"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("values")
    void theModelStoresWhatTheNodeStores(DataType type, Object value, Outcome expected) {
        String json = CqlJson.toCassandraJson("k", type, value);
        StoredValue.Parsed parsed = StoredValue.parse(type, json);
        assertThat(parsed.outcome()).isEqualTo(expected);

        int partition = NEXT_PARTITION.incrementAndGet();
        String insert = "INSERT INTO stored_values." + table(type) + " (p, k) VALUES (?, fromJson(?))";
        if (expected == Outcome.REFUSED) {
            assertThatThrownBy(() -> direct.execute(direct.prepare(insert).bind(partition, json)));
            return;
        }
        direct.execute(direct.prepare(insert).bind(partition, json));
        Row row = direct.execute(direct.prepare("SELECT k FROM stored_values." + table(type) + " WHERE p = ?")
                        .bind(partition))
                .one();
        assertThat(row).isNotNull();
        assertThat(row.getBytesUnsafe(0)).isEqualTo(parsed.bytes());
    }

    private static Arguments stored(DataType type, Object value) {
        return Arguments.of(type, value, Outcome.STORED);
    }

    private static Arguments refused(DataType type, Object value) {
        return Arguments.of(type, value, Outcome.REFUSED);
    }

    private static String table(DataType type) {
        return "k_" + type.asCql(false, false).toLowerCase(Locale.ROOT);
    }
}
