package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.StoreException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The configured consistency is the one used: on a keyspace with replication factor 2 on the single local
 * node, LOCAL_QUORUM needs a replica that does not exist (Unavailable, a retriable error), ONE does not.
 */
class CassandraConsistencyIT {

    private static CqlSession direct;
    private static DatasetSpec spec;

    @BeforeAll
    static void open() {
        direct = CassandraFixtures.directSession();
        CassandraFixtures.createKeyspace(direct, "two_replicas", 2);
        direct.execute("CREATE TABLE IF NOT EXISTS two_replicas.notes (id bigint PRIMARY KEY, body text)");
        direct.execute(
                "INSERT INTO two_replicas.notes (id, body) VALUES (1, 'hello')"); // LOCAL_ONE: the driver's default
        spec = CassandraFixtures.spec("two_replicas", "notes", KeyColumns.partitionOnly("id"), "id");
    }

    @AfterAll
    static void close() {
        direct.close();
    }

    @Test
    void localQuorumIsTheDefaultAndFailsRetriablyWhenTooFewReplicasAreUp() {
        try (CassandraStoreAdapter adapter = CassandraFixtures.openAdapter(Map.of())) {
            adapter.checkDataset(spec);

            assertThat(adapter.consistency()).isEqualTo(DefaultConsistencyLevel.LOCAL_QUORUM);
            assertThatThrownBy(() -> adapter.checkLiveState(spec, List.of(Map.of("id", 1L))))
                    .isInstanceOf(StoreException.Retriable.class)
                    .hasMessageContaining("LOCAL_QUORUM");
        }
    }

    @Test
    void consistencyOneIsUsedWhenConfigured() {
        try (CassandraStoreAdapter adapter = CassandraFixtures.openAdapter(Map.of("consistency", "ONE"))) {
            adapter.checkDataset(spec);

            List<LiveState> states = adapter.checkLiveState(spec, List.of(Map.of("id", 1L)));

            assertThat(adapter.consistency()).isEqualTo(DefaultConsistencyLevel.ONE);
            assertThat(states).singleElement().extracting(LiveState::present).isEqualTo(true);
        }
    }

    @Test
    void anUnreachableClusterIsRetriable() {
        assertThatThrownBy(() -> new CassandraAdapterProvider()
                        .open(CassandraFixtures.connection(Map.of("contact-points", "127.0.0.1:1"))))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("connection 'cassandra-test'");
    }
}
