package io.erasure.store.postgres;

import io.erasure.model.check.Names;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.tck.ContractTable;
import io.erasure.store.tck.StoreAdapterContractTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The SPI contract against a real PostgreSQL: rows carry {@code updated_at}, which stands in for write times. */
class PostgresAdapterContractIT extends StoreAdapterContractTest {

    private static StoreAdapter adapter;

    @BeforeAll
    static void open() {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS contract");
        adapter = TestDatabase.open(Map.of());
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Override
    protected StoreAdapter adapter() {
        return adapter;
    }

    @Override
    protected ContractTable table() {
        return new PostgresContractTable();
    }

    /** {@code contract.<table> (id bigint PRIMARY KEY, payload text, score int, updated_at timestamptz NOT NULL)}. */
    static final class PostgresContractTable implements ContractTable {

        @Override
        public DatasetSpec create(String table) {
            DatasetSpec spec = missing(table);
            TestDatabase.execute("DROP TABLE IF EXISTS " + spec.quotedTable());
            TestDatabase.execute("CREATE TABLE " + spec.quotedTable()
                    + " (id bigint PRIMARY KEY, payload text, score int, updated_at timestamptz NOT NULL)");
            return spec;
        }

        /** The contract table plus {@code member bigint}, with {@code CREATE INDEX ... (member)} when indexed. */
        @Override
        public Optional<DatasetSpec> createWithIdentifier(String table, boolean indexed) {
            DatasetSpec spec =
                    missing(table).toBuilder().identifierColumn("member").build();
            TestDatabase.execute("DROP TABLE IF EXISTS " + spec.quotedTable());
            TestDatabase.execute("CREATE TABLE " + spec.quotedTable()
                    + " (id bigint PRIMARY KEY, member bigint, payload text, score int,"
                    + " updated_at timestamptz NOT NULL)");
            if (indexed) {
                TestDatabase.execute("CREATE INDEX ON " + spec.quotedTable() + " (member)");
            }
            return Optional.of(spec);
        }

        @Override
        public void writeWithIdentifier(
                DatasetSpec spec, long id, long member, String payload, int score, long writeTimeMicros) {
            TestDatabase.execute(
                    "INSERT INTO " + spec.quotedTable() + " (id, member, payload, score, updated_at)"
                            + " VALUES (?, ?, ?, ?, ?)",
                    id,
                    member,
                    payload,
                    score,
                    OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(writeTimeMicros), ZoneOffset.UTC));
        }

        /** Every column of the extreme-values table but {@code id}, read back as {@code col::text}. */
        private static final List<String> EXTREME_COLUMNS = List.of(
                "smallest",
                "largest",
                "amount",
                "wide",
                "ratio",
                "single",
                "at",
                "local_at",
                "bytes",
                "uid",
                "note",
                "tags",
                "amounts",
                "doc",
                "updated_at");

        @Override
        public Optional<DatasetSpec> createForExtremeValues(String table) {
            DatasetSpec spec = missing(table);
            TestDatabase.execute("DROP TABLE IF EXISTS " + spec.quotedTable());
            TestDatabase.execute("CREATE TABLE " + spec.quotedTable() + " (id bigint PRIMARY KEY, smallest bigint,"
                    + " largest bigint, amount numeric, wide numeric(60, 30), ratio double precision, single real,"
                    + " at timestamptz, local_at timestamp, bytes bytea, uid uuid, note text, tags text[],"
                    + " amounts numeric[], doc jsonb, updated_at timestamptz NOT NULL)");
            return Optional.of(spec);
        }

        @Override
        public void writeExtremeValues(DatasetSpec spec, long id, long writeTimeMicros) {
            String everyByte = "\\x" + HexFormat.of().formatHex(everyByte());
            TestDatabase.execute(
                    "INSERT INTO " + spec.quotedTable() + " VALUES (?, -9223372036854775808,"
                            + " 9223372036854775807, 12345678901234567.891,"
                            + " 123456789012345678901234567890.123456789012345678901234567890, 0.30000000000000004,"
                            + " 3.4028235e38, '2024-02-29 23:59:59.999999+00', '1999-12-31 23:59:59.000001', ?::bytea,"
                            + " 'ffffffff-0000-4000-8000-00000000000a', ?, ARRAY['a', 'Zo\u00eb', NULL, '',"
                            + " '{quoted,}'], ARRAY[0.1, 12345678901234567.891, -1.000, 1e-30]::numeric[], ?::jsonb,"
                            + " ?)",
                    id,
                    everyByte,
                    "Zo\u00eb \u2211 \uD83D\uDE00 \"quoted\" \\ back\nslash\ttab",
                    "{\"amount\": 12345678901234567.891, \"big\": 123456789012345678901234567890,"
                            + " \"smallest\": -9223372036854775808, \"scale\": 1.000, \"tiny\": 1e-40,"
                            + " \"text\": \"Zo\u00eb \uD83D\uDE00\", \"nested\": [0.1, {\"x\": 2.50}]}",
                    OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(writeTimeMicros), ZoneOffset.UTC));
        }

        @Override
        public Optional<Map<String, String>> readExactly(DatasetSpec spec, long id) {
            String columns = String.join(
                    ", ", EXTREME_COLUMNS.stream().map(c -> c + "::text").toList());
            try (Connection connection = TestDatabase.jdbc();
                    PreparedStatement statement = connection.prepareStatement(
                            "SELECT " + columns + " FROM " + spec.quotedTable() + " WHERE id = ?")) {
                statement.setLong(1, id);
                try (ResultSet rs = statement.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    Map<String, String> row = new LinkedHashMap<>();
                    for (int i = 0; i < EXTREME_COLUMNS.size(); i++) {
                        row.put(EXTREME_COLUMNS.get(i), rs.getString(i + 1));
                    }
                    return Optional.of(row);
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        private static byte[] everyByte() {
            byte[] bytes = new byte[256];
            IntStream.range(0, 256).forEach(i -> bytes[i] = (byte) (255 - i));
            return bytes;
        }

        @Override
        public DatasetSpec missing(String table) {
            return TestDatabase.spec(
                    "contract", Names.identifier("table", table), "id", ConditionalColumn.timestamp("updated_at"));
        }

        @Override
        public void write(
                DatasetSpec spec, long id, String payload, int score, long writeTimeMicros, Integer ttlSeconds) {
            TestDatabase.execute(
                    "INSERT INTO " + spec.quotedTable() + " (id, payload, score, updated_at) VALUES (?, ?, ?, ?)"
                            + " ON CONFLICT (id) DO UPDATE SET payload = EXCLUDED.payload, score = EXCLUDED.score,"
                            + " updated_at = EXCLUDED.updated_at",
                    id,
                    payload,
                    score,
                    OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(writeTimeMicros), ZoneOffset.UTC));
        }

        @Override
        public Optional<FixtureRow> read(DatasetSpec spec, long id) {
            try (Connection connection = TestDatabase.jdbc();
                    PreparedStatement statement = connection.prepareStatement(
                            "SELECT payload, score, updated_at FROM " + spec.quotedTable() + " WHERE id = ?")) {
                statement.setLong(1, id);
                try (ResultSet rs = statement.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    long micros = CutoffTimestamp.toMicros(
                            rs.getObject(3, OffsetDateTime.class).toInstant());
                    return Optional.of(new FixtureRow(id, rs.getString(1), rs.getInt(2), micros, null));
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
