package io.erasure.store.cassandra.load;

import io.erasure.store.cassandra.jmx.NodeJmx;
import java.util.Optional;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CPU the node's own process uses, over JMX ({@code java.lang:type=OperatingSystem}, attribute
 * {@code ProcessCpuLoad}: 0..1 of the processors the node's JVM may use). The node's process, not the host: the
 * deleter and anything else sharing the host are not the store's load. Thread-safe.
 */
public final class NodeCpu {

    private static final Logger LOG = LoggerFactory.getLogger(NodeCpu.class);
    private static final ObjectName OPERATING_SYSTEM = NodeJmx.objectName("java.lang:type=OperatingSystem");

    private final NodeJmx jmx;

    public NodeCpu(NodeJmx jmx) {
        this.jmx = jmx;
    }

    /** The node's recent CPU load, or empty when JMX cannot be read or the JVM has no figure yet (negative). */
    public Optional<Double> read() {
        try {
            double load = ((Number) jmx.call(server -> server.getAttribute(OPERATING_SYSTEM, "ProcessCpuLoad")))
                    .doubleValue();
            return load < 0 || Double.isNaN(load) ? Optional.empty() : Optional.of(load);
        } catch (Exception e) {
            LOG.warn("cannot read the CPU load from {}: {}", jmx.describe(), e.toString());
            return Optional.empty();
        }
    }
}
