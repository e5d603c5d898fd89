package io.erasure.store.cassandra.guard;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One node as the adapter sees it. Neither the driver nor Cassandra says since when a node is down, so the
 * adapter brackets it from its own observations: the node has been down at least since {@code seenDownSince}
 * and at most since {@code lastSeenUp}.
 *
 * @param address       the node's broadcast address (as {@code nodetool status} shows it)
 * @param seenDownSince when this adapter first saw the node down, in its current down spell; empty unless DOWN
 * @param lastSeenUp    when this adapter last saw the node up; empty if it never did
 */
public record NodeStatus(
        String address,
        String datacenter,
        Reachability reachability,
        Optional<Instant> seenDownSince,
        Optional<Instant> lastSeenUp) {

    /**
     * Whether the node can be reached, in the view the adapter trusts (gossip over JMX if configured, else the
     * driver's).
     */
    public enum Reachability {
        UP,
        DOWN,
        UNKNOWN
    }

    public NodeStatus {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(datacenter, "datacenter");
        Objects.requireNonNull(reachability, "reachability");
        Objects.requireNonNull(seenDownSince, "seenDownSince");
        Objects.requireNonNull(lastSeenUp, "lastSeenUp");
        if (reachability == Reachability.DOWN && seenDownSince.isEmpty()) {
            throw new IllegalArgumentException("a DOWN node needs the time it was first seen down: " + address);
        }
    }

    public static NodeStatus up(String address, String datacenter, Instant seen) {
        return new NodeStatus(address, datacenter, Reachability.UP, Optional.empty(), Optional.of(seen));
    }

    public static NodeStatus down(
            String address, String datacenter, Instant seenDownSince, Optional<Instant> lastSeenUp) {
        return new NodeStatus(address, datacenter, Reachability.DOWN, Optional.of(seenDownSince), lastSeenUp);
    }
}
