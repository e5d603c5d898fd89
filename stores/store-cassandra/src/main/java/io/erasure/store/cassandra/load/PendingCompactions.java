package io.erasure.store.cassandra.load;

import io.erasure.store.cassandra.jmx.NodeJmx;
import java.util.Optional;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pending compactions of one node over JMX ({@code org.apache.cassandra.metrics:type=Compaction,name=PendingTasks},
 * attribute {@code Value}); the only place Cassandra exposes them. A node that cannot be asked leaves the part
 * out of the signal rather than failing it (the CQL parts still speak for the node). Thread-safe.
 */
public final class PendingCompactions {

    private static final Logger LOG = LoggerFactory.getLogger(PendingCompactions.class);
    private static final ObjectName PENDING_TASKS =
            NodeJmx.objectName("org.apache.cassandra.metrics:type=Compaction,name=PendingTasks");

    private final NodeJmx jmx;

    public PendingCompactions(NodeJmx jmx) {
        this.jmx = jmx;
    }

    /** The node's pending compactions, or empty if JMX could not be read this time. */
    public Optional<Integer> read() {
        try {
            return Optional.of(((Number) jmx.call(server -> server.getAttribute(PENDING_TASKS, "Value"))).intValue());
        } catch (Exception e) {
            LOG.warn("cannot read pending compactions from {}: {}", jmx.describe(), e.toString());
            return Optional.empty();
        }
    }
}
