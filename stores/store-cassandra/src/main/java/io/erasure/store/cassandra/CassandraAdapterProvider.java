package io.erasure.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.erasure.store.cassandra.guard.NodeDowntimes;
import io.erasure.store.cassandra.jmx.NodeJmx;
import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapterProvider;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import javax.management.remote.JMXConnector;

/** Opens {@link CassandraStoreAdapter}s; settings in {@link CassandraSettings}. Stateless. */
public final class CassandraAdapterProvider implements StoreAdapterProvider {

    public static final String TYPE = "CASSANDRA";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public SettingsSpec settings() {
        return CassandraSettings.SPEC;
    }

    @Override
    public StoreAdapter open(StoreConnection connection) {
        return open(connection, Clock.systemUTC());
    }

    /** Like {@link #open(StoreConnection)}, with the clock restores measure expired TTLs against. */
    public CassandraStoreAdapter open(StoreConnection connection, Clock clock) {
        CassandraSettings settings = CassandraSettings.from(connection);
        NodeDowntimes downtimes = new NodeDowntimes(clock);
        CqlSession session = connect(settings, downtimes);
        Optional<NodeJmx> jmx = settings.jmx()
                .map(address -> new NodeJmx(
                        address,
                        settings.credentials()
                                .<Map<String, ?>>map(c ->
                                        Map.of(JMXConnector.CREDENTIALS, new String[] {c.username(), c.password()}))
                                .orElse(Map.of())));
        CqlRunner cql = new CqlRunner(session, settings.consistency(), settings.readConcurrency());
        return new CassandraStoreAdapter(cql, settings, jmx, downtimes, clock);
    }

    private static CqlSession connect(CassandraSettings settings, NodeDowntimes downtimes) {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, settings.requestTimeout())
                .withString(
                        DefaultDriverOption.REQUEST_CONSISTENCY,
                        settings.consistency().name())
                .withString(DefaultDriverOption.SESSION_NAME, "erasure-" + settings.connectionRef())
                .build();
        CqlSessionBuilder builder = CqlSession.builder()
                .withConfigLoader(config)
                .addContactPoints(settings.contactPoints())
                .withLocalDatacenter(settings.localDatacenter())
                // exact times of the driver's up/down changes, for the gc_grace guard
                .addNodeStateListener(downtimes);
        settings.credentials().ifPresent(c -> builder.withAuthCredentials(c.username(), c.password()));
        try {
            return builder.build();
        } catch (RuntimeException e) {
            StoreException error = CassandraErrors.translate(
                    "connecting to Cassandra " + settings.contactPoints() + " (connection '" + settings.connectionRef()
                            + "')",
                    e);
            throw error;
        }
    }
}
