package io.erasure.store.cassandra.bulk;

import io.erasure.process.ChildJvm;
import io.erasure.process.JavaRuntimes;
import io.erasure.store.cassandra.bulk.BulkSettings.Streaming;
import io.erasure.store.spi.StoreException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs {@code sstableloader} ({@code org.apache.cassandra.tools.BulkLoader} of cassandra-all 5.0.6) in a child JVM on
 * the same classpath as the SSTable writer ({@link WriterClasspath}): it reads the ring from the contact points over
 * the native protocol, then streams every partition of the SSTables in {@code <dir>/<keyspace>/<table>} to its replicas
 * over their storage (internode) port. Pitfall: 5.0.6's loader connects to every replica at the one port of {@code -sp}
 * (default 7000, {@code BulkLoadConnectionFactory}), not at the port the node advertises in {@code system.local}: a
 * node whose {@code storage_port} is another needs {@link Streaming#storagePort()}. The cells keep the timestamps and
 * TTLs they were written with, so last-write-wins decides against newer data exactly as after an import. Output goes to
 * {@code loader.log} beside the SSTables.
 */
final class SSTableLoaderProcess {

    static final String MAIN_CLASS = "org.apache.cassandra.tools.BulkLoader";

    private final Duration timeout;
    private final String heap;
    private final String classpath;
    private final Streaming streaming;

    SSTableLoaderProcess(Duration timeout, String heap, String classpath, Streaming streaming) {
        this.timeout = timeout;
        this.heap = heap;
        this.classpath = classpath;
        this.streaming = streaming;
    }

    /** Streams the SSTables of {@code tableDir} ({@code .../<keyspace>/<table>}) into the cluster. */
    void load(Path tableDir, Path logFile) {
        if (streaming == null) {
            throw new StoreException.Fatal(
                    "the bulk restore is set to load with sstableloader but has no contact points to"
                            + " stream to (BulkSettings.streaming); build the settings with BulkSettings.of(connection,"
                            + " ...)");
        }
        List<String> jvmArgs = new ArrayList<>(List.of("-Xmx" + heap, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        jvmArgs.addAll(JavaRuntimes.CASSANDRA_JAVA17_FLAGS);
        String cp = classpath != null ? classpath : WriterClasspath.resolve(null, "BulkSettings.writerClasspath");
        ChildJvm child = ChildJvm.start(
                "sstableloader",
                cp,
                JavaRuntimes.java17(),
                jvmArgs,
                MAIN_CLASS,
                arguments(streaming, tableDir),
                tableDir.getParent().getParent(),
                logFile);
        try {
            child.awaitExit(timeout);
        } catch (IllegalStateException e) {
            throw new StoreException.Retriable(
                    "sstableloader could not stream " + tableDir + " to " + hosts(streaming)
                            + explain(streaming, child.logTail()) + ": " + e.getMessage(),
                    e);
        } finally {
            child.close();
        }
    }

    /**
     * BulkLoader's arguments: contact points, native port, storage port, credentials, TLS config, then the directory.
     */
    static List<String> arguments(Streaming streaming, Path tableDir) {
        List<String> args = new ArrayList<>();
        args.add("-d");
        args.add(hosts(streaming));
        args.add("-p");
        args.add(Integer.toString(streaming.nativeHosts().get(0).getPort()));
        if (streaming.storagePort() != null) {
            args.add("-sp");
            args.add(streaming.storagePort().toString());
        }
        if (streaming.username() != null) {
            args.add("-u");
            args.add(streaming.username());
            args.add("-pw");
            args.add(streaming.password());
        }
        if (streaming.configFile() != null) {
            args.add("-f");
            args.add(streaming.configFile().toAbsolutePath().toString());
        }
        args.add("--no-progress");
        args.add(tableDir.toAbsolutePath().toString());
        return args;
    }

    private static String hosts(Streaming streaming) {
        return streaming.nativeHosts().stream()
                .map(SSTableLoaderProcess::hostAndPort)
                .collect(Collectors.joining(","));
    }

    private static String hostAndPort(InetSocketAddress address) {
        String host = address.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    /** A hint for the failures whose cause is not obvious from the loader's log. */
    private static String explain(Streaming streaming, String log) {
        if (log.contains("Connection refused")
                || log.contains("Failed to connect")
                || log.contains("connection refused")) {
            return " (a node refused a connection: sstableloader reads the ring from the contact points' native port,"
                    + " then streams to every replica at one storage port, "
                    + (streaming.storagePort() == null ? "7000 (the default)" : streaming.storagePort())
                    + ", whatever port the node advertises: set the connection's 'storage-port' to"
                    + " the nodes' storage_port and let this machine reach it, or use"
                    + " erasure.recovery.bulk-loader=import for a node on this machine)";
        }
        return "";
    }
}
