package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.infra.NodeTool;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.PurgeStatus;
import io.erasure.store.spi.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * "Deleted but still on disk" on the real node: rows deleted through the adapter (one whole partition, one row of
 * another), memtables flushed and SSTables compacted over JMX as nodetool would, and the purge status read from
 * the table's SSTable statistics.
 */
class CassandraPurgeStatusIT {

    private static final String KEYSPACE = "purges";
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final long WRITTEN = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(WRITTEN + 1_000_000);

    private static CqlSession direct;
    private static NodeTool nodetool;
    private static CassandraStoreAdapter adapter;

    @BeforeAll
    static void open() throws Exception {
        direct = CassandraFixtures.directSession();
        CassandraFixtures.createKeyspace(direct, KEYSPACE, 1);
        nodetool = new NodeTool(CassandraFixtures.engine());
        adapter = CassandraFixtures.openAdapter(
                Map.of("jmx-port", String.valueOf(CassandraFixtures.engine().jmxPort())));
    }

    @AfterAll
    static void close() throws Exception {
        adapter.close();
        nodetool.close();
        direct.close();
    }

    @Test
    void withinGcGraceTheTombstonesStayOnDiskEvenThroughAMajorCompaction() throws Exception {
        DatasetSpec spec = eventsTable(3600);
        Instant deletedAt = deleteCustomerOneAndOneEventOfCustomerTwo(spec);

        PurgeStatus flushed = adapter.purgeStatus(spec, deletedAt);
        nodetool.compact(KEYSPACE, spec.table());
        PurgeStatus compacted = adapter.purgeStatus(spec, deletedAt);

        assertThat(flushed.purgeableAt()).isEqualTo(deletedAt.plus(Duration.ofHours(1)));
        assertThat(flushed.stillOnDisk()).isTrue();
        assertThat(flushed.explanation()).startsWith("not purgeable before " + deletedAt.plus(Duration.ofHours(1)));
        assertThat(compacted.stillOnDisk()).isTrue();
        // what the status claims, on disk: customer 1's partition tombstone outlived the compaction
        assertThat(nodetool.sstablesOf(KEYSPACE, spec.table(), "1")).isNotEmpty();
        assertThat(customerEvents(spec, 1)).isEmpty();
        assertThat(customerEvents(spec, 2)).containsExactly(2, 3);
    }

    @Test
    void withGcGraceZeroTheTombstonesAreSeenOnDiskAfterAFlushAndGoneAfterAMajorCompaction() throws Exception {
        DatasetSpec spec = eventsTable(0);
        Instant deletedAt = deleteCustomerOneAndOneEventOfCustomerTwo(spec);

        // Cassandra's statistics count a tombstone as purgeable once its deletion time, rounded up to the minute, has
        // passed: the status measures from a minute after purgeableAt, until then it says "still on disk" unmeasured
        AtomicReference<PurgeStatus> flushed = new AtomicReference<>();
        await().atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(5))
                .untilAsserted(() -> {
                    flushed.set(adapter.purgeStatus(spec, deletedAt));
                    assertThat(flushed.get().explanation()).doesNotContain("ask again");
                });
        nodetool.compact(KEYSPACE, spec.table());
        PurgeStatus compacted = adapter.purgeStatus(spec, deletedAt);

        assertThat(flushed.get().purgeableAt()).isEqualTo(deletedAt);
        assertThat(flushed.get().stillOnDisk()).isTrue();
        assertThat(flushed.get().tombstonesOnDisk()).isPositive();
        assertThat(flushed.get().explanation()).contains("purgeable tombstones are still in 2 SSTables");
        assertThat(compacted.stillOnDisk()).isFalse();
        assertThat(compacted.tombstonesOnDisk()).isZero();
        assertThat(compacted.explanation()).endsWith("compaction has removed them");
        assertThat(nodetool.sstablesOf(KEYSPACE, spec.table(), "1")).isEmpty();
        assertThat(customerEvents(spec, 2)).containsExactly(2, 3);
    }

    @Test
    void withoutAJmxPortThePurgeStatusSaysWhichSettingIsMissing() {
        DatasetSpec spec = eventsTable(3600);
        try (CassandraStoreAdapter withoutJmx = CassandraFixtures.openAdapter(Map.of())) {
            assertThatThrownBy(() -> withoutJmx.purgeStatus(spec, Instant.now()))
                    .isInstanceOf(StoreException.Fatal.class)
                    .hasMessageContaining("set 'jmx-port'");
        }
    }

    /** Three events each for customers 1 to 3, flushed; then customer 1 and event 1 of customer 2 deleted, flushed. */
    private static Instant deleteCustomerOneAndOneEventOfCustomerTwo(DatasetSpec spec) throws Exception {
        for (long customer = 1; customer <= 3; customer++) {
            for (int seq = 1; seq <= 3; seq++) {
                direct.execute(direct.prepare("INSERT INTO " + KEYSPACE + "." + spec.table()
                                + " (customer_id, seq, what) VALUES (?, ?, 'login') USING TIMESTAMP ?")
                        .bind(customer, seq, WRITTEN));
            }
        }
        nodetool.flush(KEYSPACE, spec.table());
        List<Map<String, Object>> keys = List.of(event(1, 1), event(1, 2), event(1, 3), event(2, 1));
        Instant deletedAt = Instant.now();
        DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "batch-1", CUTOFF, keys));
        adapter.executeDelete(plan);
        nodetool.flush(KEYSPACE, spec.table());
        return deletedAt;
    }

    private static DatasetSpec eventsTable(int gcGraceSeconds) {
        String table = "events_" + TABLES.incrementAndGet();
        direct.execute("CREATE TABLE " + KEYSPACE + "." + table + " (customer_id bigint, seq int, what text,"
                + " PRIMARY KEY ((customer_id), seq)) WITH gc_grace_seconds = " + gcGraceSeconds);
        return CassandraFixtures.spec(
                KEYSPACE, table, KeyColumns.of(List.of("customer_id"), List.of("seq")), "customer_id");
    }

    private static Map<String, Object> event(long customer, int seq) {
        return Map.of("customer_id", customer, "seq", seq);
    }

    private static List<Integer> customerEvents(DatasetSpec spec, long customer) {
        return direct
                .execute(direct.prepare("SELECT seq FROM " + KEYSPACE + "." + spec.table() + " WHERE customer_id = ?")
                        .bind(customer))
                .all()
                .stream()
                .map(row -> row.getInt("seq"))
                .toList();
    }
}
