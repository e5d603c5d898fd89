package io.erasure.store.cassandra.bulk;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How to reach the node for a bulk restore.
 *
 * @param jmx          the node's JMX address ({@code jmx-host}/{@code jmx-port} of the connection)
 * @param jmxEnvironment JMX connector environment (credentials), empty for an unauthenticated local node
 * @param workDir      where SSTables are written before import; must be on the node's own filesystem
 *                     (the import moves the files)
 * @param writerTimeout how long the child SSTable writer may run
 * @param writerHeap   the child's {@code -Xmx}, e.g. {@code 512m}
 */
public record BulkSettings(InetSocketAddress jmx, Map<String, ?> jmxEnvironment, Path workDir, Duration writerTimeout,
                           String writerHeap) {

    public BulkSettings {
        Objects.requireNonNull(jmx, "jmx");
        jmxEnvironment = Map.copyOf(jmxEnvironment);
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(writerTimeout, "writerTimeout");
        if (writerHeap == null || !writerHeap.matches("\\d+[kmgKMG]")) {
            throw new IllegalArgumentException("writerHeap must look like 512m or 1g, got '" + writerHeap + "'");
        }
    }

    /** A local node's JMX port, SSTables under {@code workDir}, a 10-minute writer with 512 MiB heap. */
    public static BulkSettings local(int jmxPort, Path workDir) {
        return new BulkSettings(new InetSocketAddress("127.0.0.1", jmxPort), Map.of(), workDir, Duration.ofMinutes(10), "512m");
    }
}
