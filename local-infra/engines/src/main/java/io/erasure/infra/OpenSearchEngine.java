package io.erasure.infra;

import io.erasure.infra.process.Folders;
import io.erasure.infra.process.FreePorts;
import io.erasure.process.ChildJvm;
import io.erasure.process.JavaRuntimes;
import io.erasure.process.RuntimeClasspath;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A single OpenSearch 2.19 node (search-index copies) in a child JVM from Maven artifacts ({@code runtime-opensearch}:
 * the server jar and the transport-netty4, reindex, lang-painless and analysis-common plugins), started through its
 * {@code Node} class because the distribution's bootstrap refuses to run as root. HTTP on 127.0.0.1 only, no
 * security plugin: a local node for tests and the demo, never for data that matters. The same REST calls work
 * against Elasticsearch 7.10-compatible APIs.
 */
public final class OpenSearchEngine implements Engine {

    private static final RuntimeClasspath RUNTIME = RuntimeClasspath.of("runtime-opensearch");
    private static final List<String> JVM_ARGS = List.of(
            "-Xms512m",
            "-Xmx512m",
            "-XX:+UseG1GC",
            "-XX:TieredStopAtLevel=1",
            "-Djava.net.preferIPv4Stack=true",
            "-Dlog4j2.disable.jmx=true",
            // the node's own log4j configuration is not on this layout: log warnings to the console (the log file)
            "-Dlog4j2.level=WARN",
            "-Dopensearch.set.netty.runtime.available.processors=false");

    private final int httpPort;
    private final int transportPort;
    private final EngineFolder folder;
    private ChildJvm jvm;

    public OpenSearchEngine(int httpPort, int transportPort, EngineFolder folder) {
        this.httpPort = httpPort;
        this.transportPort = transportPort;
        this.folder = folder;
        Folders.write(folder.path().resolve("config/opensearch.yml"), "# settings come from OpenSearchNodeMain\n");
        start();
    }

    static OpenSearchEngine startForTests() {
        return new OpenSearchEngine(FreePorts.next(), FreePorts.next(), EngineFolder.temporary("opensearch"));
    }

    @Override
    public String name() {
        return "opensearch";
    }

    /** The REST endpoint, e.g. {@code http://127.0.0.1:9200}. */
    public String url() {
        return "http://127.0.0.1:" + httpPort;
    }

    public int port() {
        return httpPort;
    }

    @Override
    public Map<String, String> springProperties() {
        return Map.of();
    }

    @Override
    public Map<String, String> storeConnectionProperties(String ref) {
        String prefix = "erasure.connections[" + ref + "].";
        return Map.of(prefix + "kind", "OPENSEARCH", prefix + "settings[url]", url());
    }

    @Override
    public synchronized void close() {
        if (jvm != null) {
            jvm.close();
            jvm = null;
            folder.release();
        }
    }

    private void start() {
        Path home = folder.path();
        jvm = ChildJvm.start(
                "opensearch",
                RUNTIME,
                JavaRuntimes.current(),
                JVM_ARGS,
                "io.erasure.infra.opensearch.OpenSearchNodeMain",
                List.of(home.toString(), Integer.toString(httpPort), Integer.toString(transportPort)),
                home,
                home.resolve("logs/opensearch.log"));
        try {
            jvm.awaitLog("OPENSEARCH STARTED", Duration.ofSeconds(120));
            jvm.awaitPort(httpPort, Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }
}
