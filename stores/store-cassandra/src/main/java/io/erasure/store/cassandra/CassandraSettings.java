package io.erasure.store.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.erasure.store.cassandra.load.LoadLimits;
import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The settings of one Cassandra connection, read from {@link StoreConnection#settings()}.
 *
 * <table>
 *   <caption>settings</caption>
 *   <tr><td>{@code contact-points}</td><td>required, {@code host:port,host:port}</td></tr>
 *   <tr><td>{@code local-datacenter}</td><td>required</td></tr>
 *   <tr><td>{@code consistency}</td><td>reads, deletes, read-backs and restores; default {@code LOCAL_QUORUM}</td></tr>
 *   <tr><td>{@code max-row-tombstones-per-partition}</td><td>row deletes of one partition per unlogged batch; default
 *   100</td></tr> <tr><td>{@code read-concurrency}</td><td>read statements in flight per call; default 32</td></tr>
 *   <tr><td>{@code max-keys-per-read}</td><td>keys one read statement asks for (its {@code IN} list): keys of one
 *       partition, or of several for a table without clustering columns; default 100</td></tr>
 *   <tr><td>{@code request-timeout-ms}</td><td>default 10000</td></tr>
 *   <tr><td>{@code username}, {@code password}</td><td>optional, both or neither</td></tr>
 *   <tr><td>{@code jmx-host}, {@code jmx-port}</td><td>optional: pending compactions, the node's CPU and its client
 *   read p99 in the load signal, gossip's view of the nodes for the gc_grace guard, SSTable tombstone statistics for
 *   the purge status</td></tr> <tr><td>{@code load.*}</td><td>limits that count as full utilization, see
 *   {@link LoadLimits}</td></tr>
 * </table>
 */
public record CassandraSettings(
        String connectionRef,
        List<InetSocketAddress> contactPoints,
        String localDatacenter,
        ConsistencyLevel consistency,
        int maxRowTombstonesPerPartition,
        int readConcurrency,
        int maxKeysPerRead,
        Duration requestTimeout,
        Optional<Credentials> credentials,
        Optional<InetSocketAddress> jmx,
        LoadLimits loadLimits) {

    /**
     * Every setting a Cassandra connection may have: the ones above, {@link LoadLimits}' {@code load.*}, and the bulk
     * restore path's {@code storage-port} and {@code sstableloader-config} (read by {@code store-cassandra-bulk}).
     */
    public static final SettingsSpec SPEC = SettingsSpec.of(
            "contact-points",
            "local-datacenter",
            "consistency",
            "max-row-tombstones-per-partition",
            "read-concurrency",
            "max-keys-per-read",
            "request-timeout-ms",
            "username",
            "password",
            "jmx-host",
            "jmx-port",
            "load.mutation-backlog",
            "load.read-backlog",
            "load.compaction-backlog",
            "load.write-latency-ms",
            "load.read-latency-ms",
            "load.pending-compactions",
            "storage-port",
            "sstableloader-config");

    public static final ConsistencyLevel DEFAULT_CONSISTENCY = DefaultConsistencyLevel.LOCAL_QUORUM;
    public static final int DEFAULT_MAX_ROW_TOMBSTONES_PER_PARTITION = 100;
    public static final int DEFAULT_READ_CONCURRENCY = 32;
    public static final int DEFAULT_MAX_KEYS_PER_READ = 100;
    public static final int DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

    public CassandraSettings {
        Objects.requireNonNull(connectionRef, "connectionRef");
        contactPoints = List.copyOf(contactPoints);
        Objects.requireNonNull(localDatacenter, "localDatacenter");
        Objects.requireNonNull(consistency, "consistency");
        if (maxKeysPerRead < 1) {
            throw new IllegalArgumentException("maxKeysPerRead must be at least 1, got " + maxKeysPerRead);
        }
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(jmx, "jmx");
        Objects.requireNonNull(loadLimits, "loadLimits");
    }

    public record Credentials(String username, String password) {
        @Override
        public String toString() {
            return "Credentials[username=" + username + ", password=***]";
        }
    }

    /** Reads and checks the settings; every problem names the setting and how to fix it. */
    public static CassandraSettings from(StoreConnection connection) {
        String ref = connection.ref();
        List<InetSocketAddress> contactPoints = contactPoints(ref, connection.required("contact-points"));
        String datacenter = connection.required("local-datacenter");
        ConsistencyLevel consistency = connection
                .setting("consistency")
                .map(value -> consistency(ref, value))
                .orElse(DEFAULT_CONSISTENCY);
        int cap = atLeastOne(connection, "max-row-tombstones-per-partition", DEFAULT_MAX_ROW_TOMBSTONES_PER_PARTITION);
        int readConcurrency = atLeastOne(connection, "read-concurrency", DEFAULT_READ_CONCURRENCY);
        int keysPerRead = atLeastOne(connection, "max-keys-per-read", DEFAULT_MAX_KEYS_PER_READ);
        Duration timeout = Duration.ofMillis(atLeastOne(connection, "request-timeout-ms", DEFAULT_REQUEST_TIMEOUT_MS));

        Optional<String> username = connection.setting("username");
        Optional<String> password = connection.setting("password");
        if (username.isPresent() != password.isPresent()) {
            throw new StoreException.Fatal(
                    "connection '" + ref + "' sets only one of 'username' and 'password'; set both,"
                            + " or neither for a cluster without authentication");
        }
        Optional<Credentials> credentials = username.map(user -> new Credentials(user, password.orElseThrow()));

        Optional<InetSocketAddress> jmx = Optional.empty();
        if (connection.setting("jmx-port").isPresent()) {
            int port = connection.intSetting("jmx-port", 0);
            jmx = Optional.of(InetSocketAddress.createUnresolved(
                    connection.setting("jmx-host").orElse(contactPoints.get(0).getHostString()),
                    requirePort(ref, "jmx-port", port)));
        } else if (connection.setting("jmx-host").isPresent()) {
            throw new StoreException.Fatal("connection '" + ref + "' sets 'jmx-host' without 'jmx-port'; set the node's"
                    + " JMX port (7199 by default), or remove 'jmx-host' to go without pending compactions");
        }
        return new CassandraSettings(
                ref,
                contactPoints,
                datacenter,
                consistency,
                cap,
                readConcurrency,
                keysPerRead,
                timeout,
                credentials,
                jmx,
                LoadLimits.from(connection));
    }

    private static List<InetSocketAddress> contactPoints(String ref, String value) {
        List<InetSocketAddress> points = new ArrayList<>();
        for (String part : value.split(",")) {
            String point = part.trim();
            int colon = point.lastIndexOf(':');
            if (point.isEmpty() || colon <= 0 || colon == point.length() - 1) {
                throw new StoreException.Fatal("connection '" + ref + "' setting 'contact-points' must list host:port"
                        + " pairs separated by commas (e.g. 'cassandra-1:9042,cassandra-2:9042'), got '" + value + "'");
            }
            int port;
            try {
                port = Integer.parseInt(point.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new StoreException.Fatal("connection '" + ref
                        + "' setting 'contact-points' has a port that is not" + " a number in '" + point + "'");
            }
            points.add(new InetSocketAddress(point.substring(0, colon), requirePort(ref, "contact-points", port)));
        }
        return points;
    }

    private static ConsistencyLevel consistency(String ref, String value) {
        try {
            return DefaultConsistencyLevel.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new StoreException.Fatal("connection '" + ref + "' setting 'consistency' must be one of "
                    + Arrays.stream(DefaultConsistencyLevel.values())
                            .map(Enum::name)
                            .collect(Collectors.joining(", "))
                    + " (LOCAL_QUORUM unless you know why not), got '" + value + "'");
        }
    }

    private static int atLeastOne(StoreConnection connection, String name, int defaultValue) {
        int value = connection.intSetting(name, defaultValue);
        if (value < 1) {
            throw new StoreException.Fatal(
                    "connection '" + connection.ref() + "' setting '" + name + "' must be >= 1, got " + value);
        }
        return value;
    }

    private static int requirePort(String ref, String name, int port) {
        if (port < 1 || port > 65_535) {
            throw new StoreException.Fatal("connection '" + ref + "' setting '" + name + "' has port " + port
                    + "; use a port between 1 and 65535");
        }
        return port;
    }
}
