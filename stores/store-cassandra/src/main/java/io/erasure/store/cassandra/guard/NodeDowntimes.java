package io.erasure.store.cassandra.guard;

import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeStateListener;
import io.erasure.store.cassandra.guard.NodeStatus.Reachability;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Since when each node has been down, as far as this process can tell: Cassandra keeps no such time and the
 * driver only knows the current state. Fed both by the driver's state changes (exact while the session lives)
 * and by every look at the cluster ({@link ClusterWatch}); kept in memory, so a restarted service starts over
 * and reports a node that was already down as "down for at least" the time it has watched. Thread-safe.
 */
public final class NodeDowntimes implements NodeStateListener {

    /** When a node was last seen up, and since when it has been seen down (empty while up). */
    public record Seen(Optional<Instant> lastUp, Optional<Instant> downSince) {}

    private static final Seen NEVER = new Seen(Optional.empty(), Optional.empty());

    private final Clock clock;
    private final Map<UUID, Seen> nodes = new ConcurrentHashMap<>();

    public NodeDowntimes(Clock clock) {
        this.clock = clock;
    }

    /** Records that {@code host} is {@code reachability} at {@code now}; returns what is known of it now. */
    public Seen observe(UUID host, Reachability reachability, Instant now) {
        return nodes.compute(host, (id, before) -> {
            Seen seen = before == null ? NEVER : before;
            return switch (reachability) {
                case UP -> new Seen(Optional.of(latest(seen.lastUp(), now)), Optional.empty());
                case DOWN -> seen.downSince().isPresent() ? seen : new Seen(seen.lastUp(), Optional.of(now));
                case UNKNOWN -> seen;
            };
        });
    }

    @Override
    public void onUp(Node node) {
        record(node, Reachability.UP);
    }

    @Override
    public void onDown(Node node) {
        record(node, Reachability.DOWN);
    }

    @Override
    public void onAdd(Node node) {
        // its state follows as onUp / onDown
    }

    @Override
    public void onRemove(Node node) {
        if (node.getHostId() != null) {
            nodes.remove(node.getHostId());
        }
    }

    @Override
    public void close() {
        nodes.clear();
    }

    private void record(Node node, Reachability reachability) {
        if (node.getHostId() != null) {
            observe(node.getHostId(), reachability, clock.instant());
        }
    }

    private static Instant latest(Optional<Instant> before, Instant now) {
        return before.filter(now::isBefore).orElse(now);
    }
}
