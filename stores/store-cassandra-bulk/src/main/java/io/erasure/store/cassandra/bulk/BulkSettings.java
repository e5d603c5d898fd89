package io.erasure.store.cassandra.bulk;

import io.erasure.store.cassandra.CassandraSettings;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import javax.management.remote.JMXConnector;

/**
 * How to reach the node for a bulk restore.
 *
 * @param jmx             the node's JMX address ({@code jmx-host}/{@code jmx-port} of the connection)
 * @param jmxEnvironment  JMX connector environment (credentials), empty for an unauthenticated local node
 * @param workDir         where SSTables are written before import; must be on the node's own filesystem
 *                        (the import moves the files)
 * @param writerTimeout   how long the child SSTable writer may run
 * @param writerHeap      the child's {@code -Xmx}, e.g. {@code 512m}
 * @param writerClasspath the child's classpath as {@link WriterClasspath#resolve} returns it; null for
 *                        runtime-cassandra's, found on this JVM's classpath (tests, the local platform)
 */
public record BulkSettings(InetSocketAddress jmx, Map<String, ?> jmxEnvironment, Path workDir, Duration writerTimeout,
                           String writerHeap, String writerClasspath) {

    public BulkSettings {
        Objects.requireNonNull(jmx, "jmx");
        jmxEnvironment = Map.copyOf(jmxEnvironment);
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(writerTimeout, "writerTimeout");
        if (writerHeap == null || !writerHeap.matches("\\d+[kmgKMG]")) {
            throw new IllegalArgumentException("writerHeap must look like 512m or 1g, got '" + writerHeap + "'");
        }
        if (writerClasspath != null && writerClasspath.isBlank()) {
            writerClasspath = null;
        }
    }

    /** Settings whose writer runs on runtime-cassandra's classpath, found on this JVM's classpath. */
    public BulkSettings(InetSocketAddress jmx, Map<String, ?> jmxEnvironment, Path workDir, Duration writerTimeout,
                        String writerHeap) {
        this(jmx, jmxEnvironment, workDir, writerTimeout, writerHeap, null);
    }

    /** A local node's JMX port, SSTables under {@code workDir}, a 10-minute writer with 512 MiB heap. */
    public static BulkSettings local(int jmxPort, Path workDir) {
        return new BulkSettings(new InetSocketAddress("127.0.0.1", jmxPort), Map.of(), workDir, Duration.ofMinutes(10), "512m");
    }

    /**
     * The bulk settings of a Cassandra store connection: the node's JMX address from its {@code jmx-host} and
     * {@code jmx-port} settings, with its {@code username}/{@code password} as JMX credentials when it has them
     * (as the load signal's JMX reads).
     *
     * @throws StoreException.Fatal if the connection has no {@code jmx-port} (the SSTables are imported over JMX)
     */
    public static BulkSettings of(StoreConnection connection, Path workDir, Duration writerTimeout, String writerHeap,
                                  String writerClasspath) {
        CassandraSettings settings = CassandraSettings.from(connection);
        InetSocketAddress jmx = settings.jmx().orElseThrow(() -> new StoreException.Fatal("connection '" + connection.ref()
                + "' has no 'jmx-port': the bulk restore path imports SSTables over the node's JMX; set erasure.connections."
                + connection.ref() + ".settings.jmx-host and .jmx-port, or restore online only"));
        Map<String, ?> environment = settings.credentials()
                .<Map<String, ?>>map(c -> Map.of(JMXConnector.CREDENTIALS, new String[] {c.username(), c.password()}))
                .orElse(Map.of());
        return new BulkSettings(jmx, environment, workDir, writerTimeout, writerHeap, writerClasspath);
    }
}
