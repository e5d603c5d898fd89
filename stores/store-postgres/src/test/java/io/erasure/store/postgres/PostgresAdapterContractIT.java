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
import java.util.Map;
import java.util.Optional;
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
            DatasetSpec spec = missing(table).toBuilder().identifierColumn("member").build();
            TestDatabase.execute("DROP TABLE IF EXISTS " + spec.quotedTable());
            TestDatabase.execute("CREATE TABLE " + spec.quotedTable()
                    + " (id bigint PRIMARY KEY, member bigint, payload text, score int, updated_at timestamptz NOT NULL)");
            if (indexed) {
                TestDatabase.execute("CREATE INDEX ON " + spec.quotedTable() + " (member)");
            }
            return Optional.of(spec);
        }

        @Override
        public void writeWithIdentifier(DatasetSpec spec, long id, long member, String payload, int score, long writeTimeMicros) {
            TestDatabase.execute("INSERT INTO " + spec.quotedTable() + " (id, member, payload, score, updated_at)"
                    + " VALUES (?, ?, ?, ?, ?)", id, member, payload, score,
                    OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(writeTimeMicros), ZoneOffset.UTC));
        }

        @Override
        public DatasetSpec missing(String table) {
            return TestDatabase.spec("contract", Names.identifier("table", table), "id", ConditionalColumn.timestamp("updated_at"));
        }

        @Override
        public void write(DatasetSpec spec, long id, String payload, int score, long writeTimeMicros, Integer ttlSeconds) {
            TestDatabase.execute("INSERT INTO " + spec.quotedTable() + " (id, payload, score, updated_at) VALUES (?, ?, ?, ?)"
                    + " ON CONFLICT (id) DO UPDATE SET payload = EXCLUDED.payload, score = EXCLUDED.score,"
                    + " updated_at = EXCLUDED.updated_at", id, payload, score,
                    OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(writeTimeMicros), ZoneOffset.UTC));
        }

        @Override
        public Optional<FixtureRow> read(DatasetSpec spec, long id) {
            try (Connection connection = TestDatabase.jdbc(); PreparedStatement statement = connection.prepareStatement(
                    "SELECT payload, score, updated_at FROM " + spec.quotedTable() + " WHERE id = ?")) {
                statement.setLong(1, id);
                try (ResultSet rs = statement.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    long micros = CutoffTimestamp.toMicros(rs.getObject(3, OffsetDateTime.class).toInstant());
                    return Optional.of(new FixtureRow(id, rs.getString(1), rs.getInt(2), micros, null));
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
