package io.erasure.store.cassandra.guard;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The cluster's nodes as read at {@code observedAt}.
 *
 * @param source where reachability came from: {@code "gossip"} (JMX {@code StorageService}) or {@code "driver"}
 */
public record ClusterState(List<NodeStatus> nodes, String source, Instant observedAt) {

    public ClusterState {
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(observedAt, "observedAt");
    }
}
