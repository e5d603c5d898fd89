package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.cassandra.guard.ClusterState;
import io.erasure.store.cassandra.guard.NodeStatus;
import io.erasure.store.cassandra.guard.NodeStatus.Reachability;
import io.erasure.store.cassandra.guard.TableSettings;
import io.erasure.store.cassandra.guard.TableSettingsReader;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.DeletePlan.KeyDecision;
import io.erasure.store.spi.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gc_grace guard on the real node: what the adapter reads (gc_grace_seconds, replication, the nodes and
 * their state) and what a plan does with it. Two replicas on one node stand in for a replicated keyspace
 * (read and written at consistency ONE); a second node is not needed for the refusals on cluster state, which
 * {@code GcGraceGuardTest} covers.
 */
class CassandraGcGraceGuardIT {

    private static final String SINGLE = "gcguard";
    private static final String REPLICATED = "gcguard_rf2";
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final long WRITTEN = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(WRITTEN + 1_000_000);

    private static CqlSession direct;

    @BeforeAll
    static void keyspaces() {
        direct = CassandraFixtures.directSession();
        CassandraFixtures.createKeyspace(direct, SINGLE, 1);
        CassandraFixtures.createKeyspace(direct, REPLICATED, 2);
    }

    @AfterAll
    static void close() {
        direct.close();
    }

    @Test
    void theAdapterReadsTheTablesGcGraceAndSeesAnAlterTableOnceItsCacheExpires() {
        DatasetSpec spec = profilesTable(SINGLE, "");
        SteppingClock clock = new SteppingClock(Instant.now());
        try (CassandraStoreAdapter adapter = CassandraFixtures.openAdapter(Map.of(), clock)) {
            TableSettings before = adapter.tableSettings(spec);

            direct.execute("ALTER TABLE " + SINGLE + "." + spec.table() + " WITH gc_grace_seconds = 3600");
            clock.advance(TableSettingsReader.FRESH_FOR);
            TableSettings after = adapter.tableSettings(spec);

            assertThat(before.gcGrace()).isEqualTo(Duration.ofDays(10)); // Cassandra's default, 864000 s
            assertThat(before.replication().factor()).isEqualTo(1);
            assertThat(before.tombstoneWarnThreshold()).isEqualTo(1000);
            assertThat(before.lastRepair()).isEmpty();
            assertThat(after.gcGrace()).isEqualTo(Duration.ofHours(1));
        }
    }

    @Test
    void theAdapterReadsTheNodeListAndStateFromTheDriverAndWithJmxFromGossip() {
        String jmxPort = String.valueOf(CassandraFixtures.engine().jmxPort());
        try (CassandraStoreAdapter driverOnly = CassandraFixtures.openAdapter(Map.of());
                CassandraStoreAdapter withJmx = CassandraFixtures.openAdapter(Map.of("jmx-port", jmxPort))) {
            ClusterState seenByDriver = driverOnly.clusterState();
            ClusterState seenByGossip = withJmx.clusterState();

            assertThat(seenByDriver.source()).isEqualTo("driver");
            assertThat(seenByGossip.source()).isEqualTo("gossip");
            for (ClusterState state : List.of(seenByDriver, seenByGossip)) {
                assertThat(state.nodes()).singleElement().satisfies(node -> {
                    assertThat(node.address())
                            .isEqualTo(CassandraFixtures.engine().host());
                    assertThat(node.datacenter())
                            .isEqualTo(CassandraFixtures.engine().localDatacenter());
                    assertThat(node.reachability()).isEqualTo(Reachability.UP);
                    assertThat(node.seenDownSince()).isEmpty();
                    assertThat(node.lastSeenUp()).isPresent();
                });
            }
            assertThat(seenByDriver.nodes())
                    .extracting(NodeStatus::address)
                    .isEqualTo(seenByGossip.nodes().stream()
                            .map(NodeStatus::address)
                            .toList());
        }
    }

    @Test
    void aPlanOnAHealthySingleNodeIsAllowedWithoutWarningsAndDeletes() {
        DatasetSpec spec = profilesTable(SINGLE, "");
        writeProfiles(spec, 1, 2);
        try (CassandraStoreAdapter adapter = CassandraFixtures.openAdapter(Map.of())) {
            DeletePlan plan = adapter.planDelete(batch(spec, 1, 2));
            adapter.executeDelete(plan);

            assertThat(plan.warnings()).isEmpty();
            assertThat(plan.decisions())
                    .extracting(KeyDecision::action)
                    .containsExactly(Action.DELETE_PARTITION, Action.DELETE_PARTITION);
        }
        assertThat(direct.execute("SELECT id FROM " + SINGLE + "." + spec.table())
                        .all())
                .isEmpty();
    }

    @Test
    void withTwoReplicasAndGcGraceZeroThePlanIsRefusedWithTheReasonAndNothingIsDeleted() {
        DatasetSpec spec = profilesTable(REPLICATED, " WITH gc_grace_seconds = 0");
        writeProfiles(spec, 1);
        try (CassandraStoreAdapter adapter = CassandraFixtures.openAdapter(Map.of("consistency", "ONE"))) {
            assertThatThrownBy(() -> adapter.planDelete(batch(spec, 1)))
                    .isInstanceOf(StoreException.Fatal.class)
                    .hasMessageContaining("from \"" + REPLICATED + "\".\"" + spec.table() + "\": " + REPLICATED + "."
                            + spec.table() + " has gc_grace_seconds = 0 with replication factor 2");
        }
        assertThat(direct.execute("SELECT id FROM " + REPLICATED + "." + spec.table())
                        .all())
                .hasSize(1);
    }

    @Test
    void withTwoReplicasAndNoRepairKnownThePlanCarriesTheWarningAndStillDeletes() {
        DatasetSpec spec = profilesTable(REPLICATED, "");
        writeProfiles(spec, 1);
        try (CassandraStoreAdapter adapter = CassandraFixtures.openAdapter(Map.of("consistency", "ONE"))) {
            DeletePlan plan = adapter.planDelete(batch(spec, 1));
            adapter.executeDelete(plan);

            assertThat(plan.warnings())
                    .singleElement()
                    .asString()
                    .startsWith("no successful repair of " + REPLICATED + "." + spec.table()
                            + " is known within its gc_grace_seconds of 10 days");
        }
        assertThat(direct.execute("SELECT id FROM " + REPLICATED + "." + spec.table())
                        .all())
                .isEmpty();
    }

    private static DatasetSpec profilesTable(String keyspace, String options) {
        String table = "profiles_" + TABLES.incrementAndGet();
        direct.execute("CREATE TABLE " + keyspace + "." + table + " (id bigint PRIMARY KEY, name text)" + options);
        return CassandraFixtures.spec(keyspace, table, KeyColumns.of(List.of("id"), List.of()), "id");
    }

    private static void writeProfiles(DatasetSpec spec, long... ids) {
        for (long id : ids) {
            direct.execute(direct.prepare("INSERT INTO " + spec.namespace() + "." + spec.table()
                            + " (id, name) VALUES (?, ?) USING TIMESTAMP ?")
                    .bind(id, "member " + id, WRITTEN));
        }
    }

    private static DeleteBatch batch(DatasetSpec spec, long... ids) {
        return new DeleteBatch(
                spec,
                "batch-1",
                CUTOFF,
                Arrays.stream(ids)
                        .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                        .toList());
    }
}
