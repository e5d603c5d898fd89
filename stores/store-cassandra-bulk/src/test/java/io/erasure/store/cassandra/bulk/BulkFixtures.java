package io.erasure.store.cassandra.bulk;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.cassandra.CassandraAdapterProvider;
import io.erasure.store.cassandra.CassandraStoreAdapter;
import io.erasure.store.spi.StoreConnection;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/** The shared local Cassandra node, adapters and bulk restorers on it, and dataset specs (tests and the benchmark). */
public final class BulkFixtures {

    public static final String CONNECTION_REF = "cassandra-bulk-test";

    private BulkFixtures() {}

    public static CassandraEngine engine() {
        return LocalEngines.cassandra();
    }

    public static CassandraStoreAdapter openAdapter() {
        CassandraEngine engine = engine();
        return new CassandraAdapterProvider()
                .open(
                        new StoreConnection(
                                CONNECTION_REF,
                                StoreKind.CASSANDRA,
                                Map.of(
                                        "contact-points",
                                        engine.contactPoint(),
                                        "local-datacenter",
                                        engine.localDatacenter())),
                        Clock.systemUTC());
    }

    /** A bulk restorer on the local node whose SSTables go under the build folder (same disk as the node). */
    public static BulkRestorer bulkRestorer(CassandraStoreAdapter adapter, Clock clock) {
        return new BulkRestorer(
                adapter,
                BulkSettings.local(
                        engine().jmxPort(), Path.of("target", "bulk-work").toAbsolutePath()),
                clock);
    }

    /**
     * A bulk restorer on the local node that loads with {@code loader}; {@code sstableloader} reads the ring from the
     * node's native port and streams to its storage port ({@code listen_port} of {@code system.local}: the local
     * engine's is a free port, not 7000, and the loader does not take the port the node advertises).
     */
    public static BulkRestorer bulkRestorer(
            CassandraStoreAdapter adapter, Clock clock, BulkSettings.Loader loader, CqlSession direct) {
        CassandraEngine engine = engine();
        int storagePort =
                direct.execute("SELECT listen_port FROM system.local").one().getInt("listen_port");
        BulkSettings settings = BulkSettings.local(
                        engine.jmxPort(), Path.of("target", "bulk-work").toAbsolutePath())
                .withLoader(
                        loader,
                        new BulkSettings.Streaming(
                                List.of(new InetSocketAddress(engine.host(), engine.port())),
                                storagePort,
                                null,
                                null,
                                null));
        return new BulkRestorer(adapter, settings, clock);
    }

    public static CqlSession directSession() {
        CassandraEngine engine = engine();
        return CqlSession.builder()
                .addContactPoint(new InetSocketAddress(engine.host(), engine.port()))
                .withLocalDatacenter(engine.localDatacenter())
                .build();
    }

    public static void createKeyspace(CqlSession session, String keyspace) {
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + keyspace
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    public static DatasetSpec spec(String keyspace, String table, KeyColumns keys, String identifierColumn) {
        String name = (keyspace + "-" + table).replaceAll("[^a-z0-9-]", "-");
        return DatasetSpec.builder()
                .name(name.length() > 63 ? name.substring(0, 63) : name)
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef(CONNECTION_REF)
                .namespace(keyspace)
                .table(table)
                .keyColumns(keys)
                .identifierColumn(identifierColumn)
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(new BackupLocation("backups/erasure-tests/", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("erasure-tests")
                .build();
    }
}
