package io.erasure.store.cassandra.jmx;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.MalformedURLException;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JMX connection to one Cassandra node (the connection's {@code jmx-host}:{@code jmx-port}), shared by
 * everything the adapter reads over JMX: pending compactions, the gossip view of the nodes, SSTable tombstone
 * statistics. Opened on first use and reopened after a failure. Thread-safe.
 */
public final class NodeJmx implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeJmx.class);

    /** One exchange with the node's MBean server. */
    @FunctionalInterface
    public interface Call<T> {
        T on(MBeanServerConnection server) throws IOException, JMException;
    }

    private final InetSocketAddress address;
    private final JMXServiceURL url;
    private final Map<String, ?> environment;
    private JMXConnector connector;

    public NodeJmx(InetSocketAddress address, Map<String, ?> environment) {
        this.address = address;
        try {
            this.url = new JMXServiceURL(
                    "service:jmx:rmi:///jndi/rmi://" + address.getHostString() + ":" + address.getPort() + "/jmxrmi");
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("bad JMX address " + address, e);
        }
        this.environment = environment;
    }

    /** {@code host:port} of the node asked, for messages. */
    public String describe() {
        return address.getHostString() + ":" + address.getPort();
    }

    /** Runs {@code call} on the node; a failure closes the connection so that the next call reconnects. */
    // JMX connects by an RMI registry lookup; the address is the operator's store connection setting (the node's own
    // JMX port, as nodetool uses it), never a value from a request
    @SuppressWarnings("BanJNDI")
    public synchronized <T> T call(Call<T> call) throws IOException, JMException {
        try {
            if (connector == null) {
                connector = JMXConnectorFactory.connect(url, environment);
            }
            return call.on(connector.getMBeanServerConnection());
        } catch (IOException | JMException | RuntimeException e) {
            close();
            throw e;
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

    public static ObjectName objectName(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("bad MBean name " + name, e);
        }
    }
}
