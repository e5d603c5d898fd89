package io.erasure.store.cassandra.guard;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.cassandra.guard.NodeStatus.Reachability;
import io.erasure.store.cassandra.jmx.NodeJmx;
import io.erasure.store.spi.StoreException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the cluster's nodes and whether each is reachable, cached for {@link #FRESH_FOR} so that every
 * {@code planDelete} can afford it.
 *
 * <p>The node list is what one node says ({@code system.local} + {@code system.peers_v2}, both asked of the same
 * up node), so that nodes the driver has not met are not missed. Reachability comes from gossip when a JMX
 * address is configured ({@code StorageService.LiveNodesWithPort} / {@code UnreachableNodesWithPort}: the
 * cluster's own view, which is what decides whether a replica gets the tombstones), otherwise from the driver
 * ({@code Node.getState()}: DOWN and FORCED_DOWN are down, UNKNOWN stays unknown). Since when a node is down
 * comes from {@link NodeDowntimes}. Thread-safe.
 */
public final class ClusterWatch {

    public static final Duration FRESH_FOR = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(ClusterWatch.class);
    private static final ObjectName STORAGE_SERVICE = NodeJmx.objectName("org.apache.cassandra.db:type=StorageService");

    private final CqlRunner cql;
    private final NodeDowntimes downtimes;
    private final Optional<NodeJmx> jmx;
    private final Clock clock;
    private ClusterState cached;

    public ClusterWatch(CqlRunner cql, NodeDowntimes downtimes, Optional<NodeJmx> jmx, Clock clock) {
        this.cql = cql;
        this.downtimes = downtimes;
        this.jmx = jmx;
        this.clock = clock;
    }

    /** The cluster as read at most {@link #FRESH_FOR} ago. */
    public synchronized ClusterState current() {
        Instant now = clock.instant();
        if (cached == null || !now.isBefore(cached.observedAt().plus(FRESH_FOR)) || now.isBefore(cached.observedAt())) {
            cached = read(now);
        }
        return cached;
    }

    private record Member(UUID hostId, InetAddress address, int port, String datacenter) {
        String endpoint() {
            return endpoint(address, port);
        }

        static String endpoint(InetAddress address, int port) {
            String host = address.getHostAddress();
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    private ClusterState read(Instant now) {
        Collection<Node> known = cql.session().getMetadata().getNodes().values();
        Node asked = known.stream()
                .filter(node -> node.getState() == NodeState.UP)
                .findFirst()
                .orElseThrow(
                        () -> new StoreException.Retriable("no Cassandra node is up to describe the cluster", null));
        Map<UUID, Member> members = members(asked);
        Map<UUID, Node> driverNodes = new LinkedHashMap<>();
        for (Node node : known) {
            if (node.getHostId() != null) {
                driverNodes.put(node.getHostId(), node);
                members.computeIfAbsent(node.getHostId(), id -> fromDriver(node));
            }
        }
        Optional<Gossip> gossip = jmx.flatMap(ClusterWatch::gossip);

        List<NodeStatus> nodes = new ArrayList<>(members.size());
        for (Member member : members.values()) {
            Reachability reachability = gossip.map(g -> g.reachability(member.endpoint()))
                    .orElseGet(() -> driverReachability(driverNodes.get(member.hostId())));
            NodeDowntimes.Seen seen = downtimes.observe(member.hostId(), reachability, now);
            nodes.add(new NodeStatus(
                    member.address().getHostAddress(),
                    member.datacenter(),
                    reachability,
                    reachability == Reachability.DOWN ? seen.downSince() : Optional.empty(),
                    seen.lastUp()));
        }
        return new ClusterState(nodes, gossip.isPresent() ? "gossip" : "driver", now);
    }

    private Map<UUID, Member> members(Node asked) {
        List<List<Row>> rows = cql.readAll(
                "reading the node list of the Cassandra cluster",
                List.of(
                        onNode(
                                "SELECT host_id, broadcast_address, broadcast_port, data_center FROM system.local",
                                asked),
                        onNode("SELECT host_id, peer, peer_port, data_center FROM system.peers_v2", asked)));
        Map<UUID, Member> members = new LinkedHashMap<>();
        for (List<Row> table : rows) {
            for (Row row : table) {
                UUID hostId = row.getUuid(0);
                InetAddress address = row.getInetAddress(1);
                if (hostId != null && address != null) {
                    members.put(
                            hostId,
                            new Member(
                                    hostId,
                                    address,
                                    row.isNull(2) ? 0 : row.getInt(2),
                                    row.isNull(3) ? "unknown" : row.getString(3)));
                }
            }
        }
        return members;
    }

    private static Member fromDriver(Node node) {
        InetSocketAddress address = node.getBroadcastAddress()
                .orElseGet(() -> (InetSocketAddress) node.getEndPoint().resolve());
        return new Member(
                node.getHostId(),
                address.getAddress(),
                address.getPort(),
                node.getDatacenter() == null ? "unknown" : node.getDatacenter());
    }

    private static SimpleStatement onNode(String query, Node node) {
        // node-local system tables: one node's view, at the only consistency virtual and local tables take
        return SimpleStatement.newInstance(query)
                .setNode(node)
                .setIdempotent(true)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_ONE);
    }

    private static Reachability driverReachability(Node node) {
        if (node == null) {
            return Reachability.UNKNOWN;
        }
        return switch (node.getState()) {
            case UP -> Reachability.UP;
            case DOWN, FORCED_DOWN -> Reachability.DOWN;
            case UNKNOWN -> Reachability.UNKNOWN;
        };
    }

    /** Gossip's view from the JMX node: endpoints as {@code address:port}. */
    private record Gossip(Set<String> live, Set<String> unreachable) {
        Reachability reachability(String endpoint) {
            return unreachable.contains(endpoint)
                    ? Reachability.DOWN
                    : live.contains(endpoint) ? Reachability.UP : Reachability.UNKNOWN;
        }
    }

    private static Optional<Gossip> gossip(NodeJmx jmx) {
        try {
            return Optional.of(jmx.call(server -> new Gossip(
                    endpoints(server.getAttribute(STORAGE_SERVICE, "LiveNodesWithPort")),
                    endpoints(server.getAttribute(STORAGE_SERVICE, "UnreachableNodesWithPort")))));
        } catch (Exception e) {
            LOG.warn(
                    "cannot read the nodes' state from {} over JMX, using the driver's view: {}",
                    jmx.describe(),
                    e.toString());
            return Optional.empty();
        }
    }

    /** {@code ["127.0.0.1:7000", "[::1]:7000"]} in the form {@link Member#endpoint()} writes. */
    private static Set<String> endpoints(Object value) {
        Set<String> endpoints = new HashSet<>();
        if (value instanceof Collection<?> list) {
            for (Object item : list) {
                String text = String.valueOf(item).trim();
                int colon = text.lastIndexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String host = text.substring(0, colon).replace("[", "").replace("]", "");
                try {
                    // a literal address: no name lookup happens
                    endpoints.add(
                            Member.endpoint(InetAddress.getByName(host), Integer.parseInt(text.substring(colon + 1))));
                } catch (UnknownHostException | NumberFormatException e) {
                    LOG.debug("ignoring gossip endpoint '{}'", text);
                }
            }
        }
        return endpoints;
    }
}
