package io.erasure.store.cassandra.bulk;

import io.erasure.store.cassandra.CassandraSettings;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javax.management.remote.JMXConnector;

/**
 * How to reach the node for a bulk restore.
 *
 * @param jmx             the node's JMX address ({@code jmx-host}/{@code jmx-port} of the connection)
 * @param jmxEnvironment  JMX connector environment (credentials), empty for an unauthenticated local node
 * @param workDir         where SSTables are written before they are loaded; for {@link Loader#IMPORT} it must be on
 *                        the node's own filesystem at the same path (the import moves the files)
 * @param writerTimeout   how long the child SSTable writer (and the child {@code sstableloader}) may run
 * @param writerHeap      the child's {@code -Xmx}, e.g. {@code 512m}
 * @param writerClasspath the child's classpath as {@link WriterClasspath#resolve} returns it; null for
 *                        runtime-cassandra's, found on this JVM's classpath (tests, the local platform)
 * @param loader          how the SSTables reach the node, see {@link Loader}
 * @param streaming       where {@code sstableloader} connects; null when the settings have none (then only
 *                        {@link Loader#IMPORT} works)
 */
public record BulkSettings(
        InetSocketAddress jmx,
        Map<String, ?> jmxEnvironment,
        Path workDir,
        Duration writerTimeout,
        String writerHeap,
        String writerClasspath,
        Loader loader,
        Streaming streaming) {

    /**
     * How the SSTables are loaded into the cluster ({@code erasure.recovery.bulk-loader}).
     *
     * <ul>
     *   <li>{@link #IMPORT}: JMX {@code importNewSSTables} ({@code nodetool import}); the node moves the files from the
     *       work dir into its data folder, so the node must run on this machine (or see the work dir at the same
     *       path). It loads into that one node only.</li>
     *   <li>{@link #SSTABLELOADER}: {@code org.apache.cassandra.tools.BulkLoader} in a child JVM; it reads the ring
     *       over the native protocol and streams each partition to its replicas over their storage (internode) port,
     *       which must be reachable from this machine. Works for remote nodes and whole clusters.</li>
     *   <li>{@link #AUTO} (default): {@code IMPORT} when the JMX host is a loopback or local address of this machine
     *       and the work dir exists (it is created when it can be), {@code SSTABLELOADER} otherwise.</li>
     * </ul>
     */
    public enum Loader {
        IMPORT,
        SSTABLELOADER,
        AUTO;

        /** Parses {@code import}, {@code sstableloader} or {@code auto} (any case; blank is {@code auto}). */
        public static Loader parse(String value, String property) {
            if (value == null || value.isBlank()) {
                return AUTO;
            }
            try {
                return valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        property + " must be import, sstableloader or auto, got '" + value + "'", e);
            }
        }
    }

    /**
     * Where {@code sstableloader} connects.
     *
     * @param nativeHosts the cluster's contact points ({@code host:native port}), passed as {@code -d}
     * @param storagePort the nodes' {@code storage_port} ({@code -sp}); null for Cassandra's default, 7000. The loader
     *                    connects to every replica at this one port: the port a node advertises only identifies it
     * @param username    CQL credentials ({@code -u}/{@code -pw}), null for none
     * @param password    null for none
     * @param configFile  a {@code cassandra.yaml} with the loader's {@code server_encryption_options} (internode TLS),
     *                    {@code client_encryption_options} and {@code stream_throughput_outbound} ({@code -f}); null
     *                    for none
     */
    public record Streaming(
            List<InetSocketAddress> nativeHosts,
            Integer storagePort,
            String username,
            String password,
            Path configFile) {

        public Streaming {
            nativeHosts = List.copyOf(nativeHosts);
            if (nativeHosts.isEmpty()) {
                throw new IllegalArgumentException("sstableloader needs at least one host to read the ring from");
            }
            if ((username == null) != (password == null)) {
                throw new IllegalArgumentException("set both username and password for sstableloader, or neither");
            }
        }

        public Streaming(List<InetSocketAddress> nativeHosts) {
            this(nativeHosts, null, null, null, null);
        }

        @Override
        public String toString() {
            return "Streaming[nativeHosts=" + nativeHosts + ", storagePort=" + storagePort + ", username=" + username
                    + ", password=" + (password == null ? null : "***") + ", configFile=" + configFile + "]";
        }
    }

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
        loader = loader == null ? Loader.AUTO : loader;
    }

    public BulkSettings(
            InetSocketAddress jmx,
            Map<String, ?> jmxEnvironment,
            Path workDir,
            Duration writerTimeout,
            String writerHeap,
            String writerClasspath) {
        this(jmx, jmxEnvironment, workDir, writerTimeout, writerHeap, writerClasspath, Loader.AUTO, null);
    }

    /** Settings whose writer runs on runtime-cassandra's classpath, found on this JVM's classpath. */
    public BulkSettings(
            InetSocketAddress jmx,
            Map<String, ?> jmxEnvironment,
            Path workDir,
            Duration writerTimeout,
            String writerHeap) {
        this(jmx, jmxEnvironment, workDir, writerTimeout, writerHeap, null);
    }

    /** A local node's JMX port, SSTables under {@code workDir}, a 10-minute writer with 512 MiB heap. */
    public static BulkSettings local(int jmxPort, Path workDir) {
        return new BulkSettings(
                new InetSocketAddress("127.0.0.1", jmxPort), Map.of(), workDir, Duration.ofMinutes(10), "512m");
    }

    /** These settings with another loader and where {@code sstableloader} connects. */
    public BulkSettings withLoader(Loader loader, Streaming streaming) {
        return new BulkSettings(
                jmx, jmxEnvironment, workDir, writerTimeout, writerHeap, writerClasspath, loader, streaming);
    }

    /**
     * The loader these settings use: {@link #loader()} unless it is {@link Loader#AUTO}, then {@link Loader#IMPORT}
     * when the JMX host is this machine and the work dir exists or can be created, else {@link Loader#SSTABLELOADER}.
     */
    public Loader chosenLoader() {
        if (loader != Loader.AUTO) {
            return loader;
        }
        return auto(jmx.getHostString(), workDir);
    }

    /** {@link Loader#AUTO}'s choice for a node whose JMX host is {@code jmxHost}. */
    static Loader auto(String jmxHost, Path workDir) {
        if (!isThisMachine(jmxHost)) {
            return Loader.SSTABLELOADER;
        }
        try {
            Files.createDirectories(workDir);
        } catch (IOException | SecurityException e) {
            return Loader.SSTABLELOADER;
        }
        return Files.isDirectory(workDir) ? Loader.IMPORT : Loader.SSTABLELOADER;
    }

    /** Whether {@code host} names this machine: a loopback, wildcard or local interface address. */
    static boolean isThisMachine(String host) {
        if (host == null || host.isBlank()) {
            return false;
        }
        try {
            for (InetAddress address : InetAddress.getAllByName(host.trim())) {
                if (address.isLoopbackAddress()
                        || address.isAnyLocalAddress()
                        || NetworkInterface.getByInetAddress(address) != null) {
                    return true;
                }
            }
            return false;
        } catch (UnknownHostException | SocketException e) {
            return false;
        }
    }

    /** {@link #of(StoreConnection, Path, Duration, String, String, Loader)} with {@link Loader#AUTO}. */
    public static BulkSettings of(
            StoreConnection connection,
            Path workDir,
            Duration writerTimeout,
            String writerHeap,
            String writerClasspath) {
        return of(connection, workDir, writerTimeout, writerHeap, writerClasspath, Loader.AUTO);
    }

    /**
     * The bulk settings of a Cassandra store connection: the node's JMX address from its {@code jmx-host} and
     * {@code jmx-port} settings, with its {@code username}/{@code password} as JMX credentials when it has them
     * (as the load signal's JMX reads); for {@code sstableloader} its {@code contact-points}, the same credentials,
     * and the optional settings {@code storage-port} (the nodes' {@code storage_port}, default 7000) and
     * {@code sstableloader-config} (a {@code cassandra.yaml} with internode/client TLS for the loader).
     *
     * @throws StoreException.Fatal if the connection has no {@code jmx-port} (the bulk path reads the node over JMX)
     */
    public static BulkSettings of(
            StoreConnection connection,
            Path workDir,
            Duration writerTimeout,
            String writerHeap,
            String writerClasspath,
            Loader loader) {
        CassandraSettings settings = CassandraSettings.from(connection);
        InetSocketAddress jmx = settings.jmx()
                .orElseThrow(() -> new StoreException.Fatal("connection '" + connection.ref()
                        + "' has no 'jmx-port': the bulk restore path imports SSTables over the node's JMX;"
                        + " set erasure.connections."
                        + connection.ref() + ".settings.jmx-host and .jmx-port, or restore online only"));
        Map<String, ?> environment = settings.credentials()
                .<Map<String, ?>>map(c -> Map.of(JMXConnector.CREDENTIALS, new String[] {c.username(), c.password()}))
                .orElse(Map.of());
        Integer storagePort =
                connection.setting("storage-port").isPresent() ? connection.intSetting("storage-port", 7000) : null;
        if (storagePort != null && (storagePort < 1 || storagePort > 65_535)) {
            throw new StoreException.Fatal("connection '" + connection.ref() + "' setting 'storage-port' has port "
                    + storagePort + "; use the nodes' storage_port (7000 by default)");
        }
        Streaming streaming = new Streaming(
                settings.contactPoints(),
                storagePort,
                settings.credentials()
                        .map(CassandraSettings.Credentials::username)
                        .orElse(null),
                settings.credentials()
                        .map(CassandraSettings.Credentials::password)
                        .orElse(null),
                connection.setting("sstableloader-config").map(Path::of).orElse(null));
        return new BulkSettings(
                jmx, environment, workDir, writerTimeout, writerHeap, writerClasspath, loader, streaming);
    }
}
