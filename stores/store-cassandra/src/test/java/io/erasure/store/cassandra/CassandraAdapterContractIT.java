package io.erasure.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.tck.ContractTable;
import io.erasure.store.tck.StoreAdapterContractTest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store adapter contract against the real local Cassandra node. */
class CassandraAdapterContractIT extends StoreAdapterContractTest {

    private static final String KEYSPACE = "contract";

    private static CassandraStoreAdapter adapter;
    private static CqlSession direct;
    private static CassandraContractTable table;

    @BeforeAll
    static void open() {
        direct = CassandraFixtures.directSession();
        CassandraFixtures.createKeyspace(direct, KEYSPACE, 1);
        adapter = CassandraFixtures.openAdapter(Map.of());
        table = new CassandraContractTable(direct);
    }

    @AfterAll
    static void close() {
        adapter.close();
        direct.close();
    }

    @Override
    protected StoreAdapter adapter() {
        return adapter;
    }

    @Override
    protected ContractTable table() {
        return table;
    }

    /** The contract table as plain CQL on a session of its own. */
    private record CassandraContractTable(CqlSession session) implements ContractTable {

        @Override
        public DatasetSpec create(String name) {
            session.execute(
                    "CREATE TABLE " + KEYSPACE + "." + name + " (id bigint PRIMARY KEY, payload text, score int)");
            return missing(name);
        }

        @Override
        public DatasetSpec missing(String name) {
            return CassandraFixtures.spec(KEYSPACE, name, KeyColumns.partitionOnly("id"), "id");
        }

        @Override
        public void write(
                DatasetSpec spec, long id, String payload, int score, long writeTimeMicros, Integer ttlSeconds) {
            session.execute(session.prepare("INSERT INTO " + spec.quotedTable()
                            + " (id, payload, score) VALUES (?, ?, ?)" + " USING TIMESTAMP ? AND TTL ?")
                    .bind(id, payload, score, writeTimeMicros, ttlSeconds == null ? 0 : ttlSeconds));
        }

        /** The contract table plus {@code member bigint}, with an SAI index on it when {@code indexed}. */
        @Override
        public Optional<DatasetSpec> createWithIdentifier(String name, boolean indexed) {
            session.execute("CREATE TABLE " + KEYSPACE + "." + name
                    + " (id bigint PRIMARY KEY, payload text, score int, member bigint)");
            if (indexed) {
                session.execute("CREATE INDEX ON " + KEYSPACE + "." + name + " (member) USING 'sai'");
                awaitQueryable(name);
            }
            return Optional.of(CassandraFixtures.spec(KEYSPACE, name, KeyColumns.partitionOnly("id"), "member"));
        }

        @Override
        public void writeWithIdentifier(
                DatasetSpec spec, long id, long member, String payload, int score, long writeTimeMicros) {
            session.execute(session.prepare("INSERT INTO " + spec.quotedTable() + " (id, member, payload, score)"
                            + " VALUES (?, ?, ?, ?) USING TIMESTAMP ?")
                    .bind(id, member, payload, score, writeTimeMicros));
        }

        /**
         * Every CQL type that carries a value a double or a JSON reader could bend, in plain and collection columns.
         */
        @Override
        public Optional<DatasetSpec> createForExtremeValues(String name) {
            session.execute("CREATE TABLE " + KEYSPACE + "." + name + " (id bigint PRIMARY KEY, smallest bigint,"
                    + " largest bigint, amount decimal, wide varint, ratio double, single float, at timestamp,"
                    + " clock time, bytes blob, uid uuid, tid timeuuid, note text, tags list<text>,"
                    + " amounts list<decimal>, names set<text>, blobs map<text, blob>, readings map<text, double>)");
            return Optional.of(missing(name));
        }

        @Override
        public void writeExtremeValues(DatasetSpec spec, long id, long writeTimeMicros) {
            byte[] everyByte = new byte[256];
            for (int i = 0; i < everyByte.length; i++) {
                everyByte[i] = (byte) (255 - i);
            }
            session.execute(
                    session.prepare("INSERT INTO " + spec.quotedTable() + " (id, smallest, largest, amount, wide,"
                                    + " ratio, single, at, clock, bytes, uid, tid, note, tags, amounts, names, blobs,"
                                    + " readings) VALUES (?, -9223372036854775808, 9223372036854775807,"
                                    + " 123456789012345678901234567890.123456789012345678901234567890,"
                                    + " 123456789012345678901234567890123456789, 0.30000000000000004, 3.4028235e38,"
                                    + " '2024-02-29 23:59:59.999Z', '23:59:59.999999999', 0x"
                                    + HexFormat.of().formatHex(everyByte) + ","
                                    + " ffffffff-0000-4000-8000-00000000000a, 50554d6e-29bb-11e5-b345-feff819cdc9f, ?,"
                                    + " ['a', 'Zo\u00eb', ''], [0.1, 12345678901234567.891, -1.000, 1e-30], {'b', 'a',"
                                    + " 'Zo\u00eb'}, {'k': 0x00ff, 'Zo\u00eb': 0x}, {'x': 0.1, 'max':"
                                    + " 1.7976931348623157e308}) USING TIMESTAMP ?")
                            .bind(id, "Zo\u00eb \u2211 \uD83D\uDE00 \"quoted\" \\ back\nslash", writeTimeMicros));
        }

        /** Every column but {@code id} as a CQL literal, formatted by the driver's own codec. */
        @Override
        public Optional<Map<String, String>> readExactly(DatasetSpec spec, long id) {
            Row row = session.execute(session.prepare("SELECT * FROM " + spec.quotedTable() + " WHERE id = ?")
                            .bind(id))
                    .one();
            if (row == null) {
                return Optional.empty();
            }
            Map<String, String> values = new LinkedHashMap<>();
            for (ColumnDefinition column : row.getColumnDefinitions()) {
                values.put(
                        column.getName().asInternal(),
                        row.codecRegistry().codecFor(column.getType()).format(row.getObject(column.getName())));
            }
            values.remove("id");
            return Optional.of(values);
        }

        /** An index is built in the background, even on an empty table: wait until it answers. */
        private void awaitQueryable(String name) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (true) {
                try {
                    session.execute("SELECT id FROM " + KEYSPACE + "." + name + " WHERE member = 0");
                    return;
                } catch (RuntimeException notYet) {
                    if (System.nanoTime() > deadline) {
                        throw notYet;
                    }
                    LockSupport.parkNanos(50_000_000L);
                }
            }
        }

        @Override
        public Optional<FixtureRow> read(DatasetSpec spec, long id) {
            Row row = session.execute(session.prepare("SELECT id, payload, score, WRITETIME(payload) AS wt,"
                                    + " TTL(payload) AS ttl FROM " + spec.quotedTable() + " WHERE id = ?")
                            .bind(id))
                    .one();
            if (row == null) {
                return Optional.empty();
            }
            return Optional.of(new FixtureRow(
                    row.getLong("id"),
                    row.getString("payload"),
                    row.getInt("score"),
                    row.getLong("wt"),
                    row.isNull("ttl") ? null : row.getInt("ttl")));
        }
    }
}
