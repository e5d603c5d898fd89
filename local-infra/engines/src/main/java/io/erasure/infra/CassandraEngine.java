package io.erasure.infra;

import io.erasure.infra.process.Folders;
import io.erasure.infra.process.FreePorts;
import io.erasure.process.ChildJvm;
import io.erasure.process.JavaRuntimes;
import io.erasure.process.RuntimeClasspath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A single Cassandra 5.0 node in a child Java 17 JVM launched from {@code cassandra-all}
 * ({@code runtime-cassandra}), with local JMX for nodetool-style operations and metrics.
 *
 * <p>{@code storage_compatibility_mode: NONE} so that SSTables written by CQLSSTableWriter (bulk
 * restores, bulk tombstones) are imported rather than silently ignored.
 */
public final class CassandraEngine implements Engine {

    public static final String LOCAL_DATACENTER = "datacenter1";

    /** The module flags of Cassandra 5.0's {@code jvm17-server.options} (also needed by its offline tools). */
    public static final List<String> JAVA17_MODULE_FLAGS = JavaRuntimes.CASSANDRA_JAVA17_FLAGS;

    /** Start-up shortcuts for a throw-away single node; never for data that must survive a crash. */
    private static final List<String> FAST_TEST_FLAGS = List.of(
            "-XX:TieredStopAtLevel=1",
            "-Dcassandra.skip_wait_for_gossip_to_settle=0",
            "-Dcassandra.ring_delay_ms=0",
            "-Dcassandra.superuser_setup_delay_ms=0",
            "-Dcassandra.unsafesystem=true");

    private final int nativePort;
    private final int storagePort;
    private final int jmxPort;
    private final EngineFolder folder;
    private final List<String> jvmArgs;
    private ChildJvm jvm;

    public CassandraEngine(int nativePort, int storagePort, int jmxPort, EngineFolder folder) {
        this.nativePort = nativePort;
        this.storagePort = storagePort;
        this.jmxPort = jmxPort;
        this.folder = folder;
        Path dir = folder.path();
        Path yaml = dir.resolve("conf/cassandra.yaml");
        Path logback = dir.resolve("conf/logback.xml");
        Folders.write(yaml, yaml(dir));
        Folders.write(logback, LOGBACK);

        List<String> args = new ArrayList<>(List.of(
                "-Xms512m",
                "-Xmx512m",
                "-XX:+UseG1GC",
                "-Xss512k",
                "-Djava.net.preferIPv4Stack=true",
                "-Dcassandra.config=" + yaml.toUri(),
                "-Dcassandra.storagedir=" + dir.resolve("data"),
                "-Dcassandra-foreground=yes",
                "-Dcassandra.jmx.local.port=" + jmxPort,
                "-Dlogback.configurationFile=" + logback));
        args.addAll(JAVA17_MODULE_FLAGS);
        if (folder.temporary()) {
            args.addAll(FAST_TEST_FLAGS);
        }
        this.jvmArgs = List.copyOf(args);
        try {
            start();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void start() {
        Path dir = folder.path();
        jvm = ChildJvm.start(
                "cassandra",
                RuntimeClasspath.of("runtime-cassandra"),
                JavaRuntimes.java17(),
                jvmArgs,
                "org.apache.cassandra.service.CassandraDaemon",
                List.of(),
                dir,
                dir.resolve("logs/cassandra.log"));
        jvm.awaitPort(nativePort, Duration.ofSeconds(180));
    }

    /**
     * Kills the node at once (SIGKILL, a crash: no drain, no flush) and starts it again on the same data and ports;
     * it replays its commit log. For fault tests on a persistent folder (a temporary one runs with
     * {@code unsafesystem}, whose system tables a crash may lose).
     */
    public synchronized void crashAndRestart() {
        jvm.kill();
        start();
    }

    static CassandraEngine startForTests() {
        return new CassandraEngine(
                FreePorts.next(), FreePorts.next(), FreePorts.next(), EngineFolder.temporary("cassandra"));
    }

    @Override
    public String name() {
        return "cassandra";
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return nativePort;
    }

    public int jmxPort() {
        return jmxPort;
    }

    public String localDatacenter() {
        return LOCAL_DATACENTER;
    }

    /** {@code host:port}, as {@code spring.cassandra.contact-points} takes it. */
    public String contactPoint() {
        return host() + ":" + nativePort;
    }

    /**
     * The node's data directory ({@code data_file_directories}): {@code <keyspace>/<table>-<id>/} with its SSTables
     * and {@code snapshots/<tag>/}, read by tests that take snapshots as a backup tool would.
     */
    public Path dataDirectory() {
        return folder.path().resolve("data/data");
    }

    /** The data folder of {@code keyspace.table}, {@code <data>/<keyspace>/<table>-<id>/}. */
    public Path tableDirectory(String keyspace, String table) throws IOException {
        try (Stream<Path> dirs = Files.list(dataDirectory().resolve(keyspace))) {
            // CQL names have no '-': the first '-' ends the table's name
            return dirs.filter(d -> d.getFileName().toString().startsWith(table + "-"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no data folder of " + keyspace + "." + table));
        }
    }

    public long pid() {
        return jvm.pid();
    }

    @Override
    public Map<String, String> storeConnectionProperties(String ref) {
        String prefix = "erasure.connections[" + ref + "].";
        return Map.of(
                prefix + "kind", "CASSANDRA",
                prefix + "settings[contact-points]", contactPoint(),
                prefix + "settings[local-datacenter]", LOCAL_DATACENTER,
                prefix + "settings[jmx-host]", host(),
                prefix + "settings[jmx-port]", Integer.toString(jmxPort));
    }

    @Override
    public Map<String, String> springProperties() {
        return Map.of(
                "spring.cassandra.contact-points",
                contactPoint(),
                "spring.cassandra.local-datacenter",
                LOCAL_DATACENTER);
    }

    @Override
    public synchronized void close() {
        if (jvm != null) {
            jvm.close();
            jvm = null;
            folder.release();
        }
    }

    private String yaml(Path dir) {
        return """
                cluster_name: erasure-local
                num_tokens: 1
                partitioner: org.apache.cassandra.dht.Murmur3Partitioner
                listen_address: 127.0.0.1
                rpc_address: 127.0.0.1
                storage_port: %d
                native_transport_port: %d
                start_native_transport: true
                seed_provider:
                  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
                    parameters:
                      - seeds: "127.0.0.1:%d"
                endpoint_snitch: SimpleSnitch
                data_file_directories:
                  - %s
                commitlog_directory: %s
                saved_caches_directory: %s
                hints_directory: %s
                cdc_raw_directory: %s
                %s
                memtable_heap_space: 64MiB
                memtable_offheap_space: 64MiB
                concurrent_compactors: 1
                auto_snapshot: false
                hinted_handoff_enabled: false
                storage_compatibility_mode: NONE
                authenticator: AllowAllAuthenticator
                authorizer: AllowAllAuthorizer
                """.formatted(
                        storagePort,
                        nativePort,
                        storagePort,
                        dir.resolve("data/data"),
                        dir.resolve("data/commitlog"),
                        dir.resolve("data/saved_caches"),
                        dir.resolve("data/hints"),
                        dir.resolve("data/cdc_raw"),
                        commitLogSync());
    }

    /**
     * A node whose data must outlive a crash (a persistent folder: the local platform, the chaos trials) syncs its
     * commit log before it acknowledges a write ({@code batch}), as a single node holding the deletion log must: in
     * {@code periodic} mode a SIGKILL loses what was acknowledged since the last sync marker, about the last 100 ms
     * ({@code CassandraCrashDurabilityIT}), so deletes the platform had read back as gone came back and log records it
     * had been told were stored could be lost. A throw-away test node keeps the faster {@code periodic} mode: nothing
     * crashes it.
     */
    private String commitLogSync() {
        return folder.temporary()
                ? "commitlog_sync: periodic\ncommitlog_sync_period: 10000ms"
                : "commitlog_sync: batch";
    }

    private static final String LOGBACK = """
            <configuration>
              <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{20} - %msg%n</pattern></encoder>
              </appender>
              <root level="INFO"><appender-ref ref="OUT"/></root>
            </configuration>
            """;
}
