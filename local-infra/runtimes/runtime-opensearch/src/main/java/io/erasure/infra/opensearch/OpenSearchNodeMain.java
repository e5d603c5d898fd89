package io.erasure.infra.opensearch;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * A single OpenSearch 2.19 node in this JVM: {@code OpenSearchNodeMain <home> <http port> <transport port>}. The
 * distribution's bootstrap refuses to run as root and wants its own layout, so the node is started through
 * {@link Node} with the plugins the platform needs on the classpath (HTTP over Netty, delete-by-query, Painless,
 * common analysis). Prints {@code OPENSEARCH STARTED} once it answers; stops when its parent closes stdin
 * (process-guard's {@code OrphanGuard}) or on SIGTERM.
 */
public final class OpenSearchNodeMain {

    private static final List<Class<? extends Plugin>> PLUGINS =
            List.of(Netty4Plugin.class, ReindexPlugin.class, PainlessPlugin.class, CommonAnalysisPlugin.class);

    private OpenSearchNodeMain() {}

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]);
        Settings settings = Settings.builder()
                .put("path.home", home.toString())
                .put("path.data", home.resolve("data").toString())
                .put("path.logs", home.resolve("logs").toString())
                .put("cluster.name", "erasure-local")
                .put("node.name", "erasure-local-0")
                .put("discovery.type", "single-node")
                .put("network.host", "127.0.0.1")
                .put("http.port", args[1])
                .put("transport.port", args[2])
                .put("http.type", "netty4")
                .put("transport.type", "netty4")
                .put("action.auto_create_index", "true")
                // a test machine's disk is often fuller than production thresholds allow
                .put("cluster.routing.allocation.disk.threshold_enabled", "false")
                .build();
        Environment environment = InternalSettingsPreparer.prepareEnvironment(
                settings, Map.of(), home.resolve("config"), () -> "erasure-local-0");
        Node node = new PluginNode(environment, PLUGINS);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }));
        node.start();
        System.out.println("OPENSEARCH STARTED on 127.0.0.1:" + args[1]);
        System.out.flush();
        stopped.await();
    }

    /** {@link Node} with classpath plugins: the constructor that takes them is protected. */
    private static final class PluginNode extends Node {
        PluginNode(Environment environment, List<Class<? extends Plugin>> plugins) {
            super(environment, plugins, true);
        }
    }
}
