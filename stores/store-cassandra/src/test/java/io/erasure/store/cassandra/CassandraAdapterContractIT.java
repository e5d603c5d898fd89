package io.erasure.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.tck.ContractTable;
import io.erasure.store.tck.StoreAdapterContractTest;
import java.util.Map;
import java.util.Optional;
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
            session.execute("CREATE TABLE " + KEYSPACE + "." + name + " (id bigint PRIMARY KEY, payload text, score int)");
            return missing(name);
        }

        @Override
        public DatasetSpec missing(String name) {
            return CassandraFixtures.spec(KEYSPACE, name, KeyColumns.partitionOnly("id"), "id");
        }

        @Override
        public void write(DatasetSpec spec, long id, String payload, int score, long writeTimeMicros, Integer ttlSeconds) {
            session.execute(session.prepare("INSERT INTO " + spec.quotedTable() + " (id, payload, score) VALUES (?, ?, ?)"
                            + " USING TIMESTAMP ? AND TTL ?")
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
        public void writeWithIdentifier(DatasetSpec spec, long id, long member, String payload, int score,
                                        long writeTimeMicros) {
            session.execute(session.prepare("INSERT INTO " + spec.quotedTable() + " (id, member, payload, score)"
                    + " VALUES (?, ?, ?, ?) USING TIMESTAMP ?").bind(id, member, payload, score, writeTimeMicros));
        }

        /** An index is built in the background, even on an empty table: wait until it answers. */
        private void awaitQueryable(String name) {
            long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
            while (true) {
                try {
                    session.execute("SELECT id FROM " + KEYSPACE + "." + name + " WHERE member = 0");
                    return;
                } catch (RuntimeException notYet) {
                    if (System.nanoTime() > deadline) {
                        throw notYet;
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
                }
            }
        }

        @Override
        public Optional<FixtureRow> read(DatasetSpec spec, long id) {
            Row row = session.execute(session.prepare("SELECT id, payload, score, WRITETIME(payload) AS wt,"
                    + " TTL(payload) AS ttl FROM " + spec.quotedTable() + " WHERE id = ?").bind(id)).one();
            if (row == null) {
                return Optional.empty();
            }
            return Optional.of(new FixtureRow(row.getLong("id"), row.getString("payload"), row.getInt("score"),
                    row.getLong("wt"), row.isNull("ttl") ? null : row.getInt("ttl")));
        }
    }
}
