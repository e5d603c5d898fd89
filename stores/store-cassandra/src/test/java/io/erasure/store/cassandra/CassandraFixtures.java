package io.erasure.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreConnection;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** The shared local Cassandra node, adapters opened on it, a direct session for fixtures, and dataset specs. */
public final class CassandraFixtures {

    public static final String CONNECTION_REF = "cassandra-test";

    private CassandraFixtures() {}

    public static CassandraEngine engine() {
        return LocalEngines.cassandra();
    }

    /** The settings of a connection to the local node, plus {@code extra}. */
    public static StoreConnection connection(Map<String, String> extra) {
        CassandraEngine engine = engine();
        Map<String, String> settings = new HashMap<>();
        settings.put("contact-points", engine.contactPoint());
        settings.put("local-datacenter", engine.localDatacenter());
        settings.putAll(extra);
        return new StoreConnection(CONNECTION_REF, StoreKind.CASSANDRA, settings);
    }

    public static CassandraStoreAdapter openAdapter(Map<String, String> extra) {
        return openAdapter(extra, Clock.systemUTC());
    }

    public static CassandraStoreAdapter openAdapter(Map<String, String> extra, Clock clock) {
        return new CassandraAdapterProvider().open(connection(extra), clock);
    }

    /** A session for writing and reading fixtures directly, independent of the adapter. */
    public static CqlSession directSession() {
        CassandraEngine engine = engine();
        return CqlSession.builder()
                .addContactPoint(new InetSocketAddress(engine.host(), engine.port()))
                .withLocalDatacenter(engine.localDatacenter())
                // on a loaded 2-core machine a CREATE TABLE can take longer than the driver's 2 s default
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
                        .build())
                .build();
    }

    public static void createKeyspace(CqlSession session, String keyspace, int replicationFactor) {
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = {'class': 'SimpleStrategy',"
                + " 'replication_factor': " + replicationFactor + "}");
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
