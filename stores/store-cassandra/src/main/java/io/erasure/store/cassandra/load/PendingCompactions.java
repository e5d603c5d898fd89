package io.erasure.store.cassandra.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pending compactions of one node over JMX ({@code org.apache.cassandra.metrics:type=Compaction,name=PendingTasks},
 * attribute {@code Value}); the only place Cassandra exposes them. The connection is opened on first use and
 * reopened after a failure; a node that cannot be asked leaves the part out of the signal rather than
 * failing it (the CQL parts still speak for the node). Thread-safe.
 */
public final class PendingCompactions implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PendingCompactions.class);
    private static final ObjectName PENDING_TASKS = objectName("org.apache.cassandra.metrics:type=Compaction,name=PendingTasks");

    private final JMXServiceURL url;
    private final Map<String, ?> environment;
    private JMXConnector connector;

    public PendingCompactions(InetSocketAddress jmx, Map<String, ?> environment) {
        try {
            this.url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + jmx.getHostString() + ":" + jmx.getPort() + "/jmxrmi");
        } catch (java.net.MalformedURLException e) {
            throw new IllegalArgumentException("bad JMX address " + jmx, e);
        }
        this.environment = environment;
    }

    /** The node's pending compactions, or empty if JMX could not be read this time. */
    public synchronized Optional<Integer> read() {
        try {
            if (connector == null) {
                connector = JMXConnectorFactory.connect(url, environment);
            }
            MBeanServerConnection server = connector.getMBeanServerConnection();
            Object value = server.getAttribute(PENDING_TASKS, "Value");
            return Optional.of(((Number) value).intValue());
        } catch (Exception e) {
            LOG.warn("cannot read pending compactions from {}: {}", url, e.toString());
            close();
            return Optional.empty();
        }
    }

    @Override
    public synchronized void close() {
        if (connector != null) {
            try {
                connector.close();
            } catch (IOException e) {
                LOG.debug("closing JMX connection to {}", url, e);
            }
            connector = null;
        }
    }

    private static ObjectName objectName(String name) {
        try {
            return new ObjectName(name);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }
}
