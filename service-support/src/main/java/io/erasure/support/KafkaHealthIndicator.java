package io.erasure.support;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.Node;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * UP when the Kafka cluster answers {@code describeCluster} within the timeout; DOWN otherwise.
 *
 * <p>One {@link Admin} client is opened on the first check and reused, so a health probe does not
 * open a new connection each time; it is closed with the application context.
 */
public class KafkaHealthIndicator extends AbstractHealthIndicator implements DisposableBean {

    private final Map<String, Object> adminConfig;
    private final Duration timeout;
    private Admin admin;

    /**
     * @param adminConfig the admin client configuration, e.g. {@code KafkaAdmin.getConfigurationProperties()}
     * @param timeout     how long a check may wait for the cluster
     */
    public KafkaHealthIndicator(Map<String, Object> adminConfig, Duration timeout) {
        super("Kafka health check failed");
        int timeoutMs = Math.toIntExact(timeout.toMillis());
        Map<String, Object> config = new HashMap<>(adminConfig);
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "erasure-health");
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        this.adminConfig = Map.copyOf(config);
        this.timeout = timeout;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        DescribeClusterResult cluster =
                admin().describeCluster(new DescribeClusterOptions().timeoutMs(Math.toIntExact(timeout.toMillis())));
        String clusterId = cluster.clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Collection<Node> nodes = cluster.nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        builder.up().withDetail("clusterId", clusterId).withDetail("nodes", nodes.size());
    }

    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(adminConfig);
        }
        return admin;
    }

    @Override
    public synchronized void destroy() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(1));
            admin = null;
        }
    }
}
