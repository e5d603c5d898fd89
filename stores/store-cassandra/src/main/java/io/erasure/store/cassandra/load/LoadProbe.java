package io.erasure.store.cassandra.load;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.cassandra.jmx.NodeJmx;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The cluster's load from Cassandra's own virtual tables, asked of every up node of the local data
 * center (virtual tables are node-local; the busiest node decides):
 *
 * <ul>
 *   <li>{@code mutation_backlog}, {@code read_backlog}, {@code compaction_backlog}: pending + blocked tasks of
 *       {@code MutationStage}, {@code ReadStage} and {@code CompactionExecutor}
 *       ({@code system_views.thread_pools});</li>
 *   <li>{@code write_latency}, {@code read_latency}: the highest recent p99 of any user table
 *       ({@code system_views.local_write_latency} / {@code local_read_latency}, column {@code p99th_ms});</li>
 *   <li>{@code pending_compactions}: JMX {@code Compaction.PendingTasks}, when a JMX address is configured
 *       (only the node at that address is asked);</li>
 *   <li>{@code cpu}: the node process's CPU load over JMX ({@link NodeCpu}), when a JMX address is configured.</li>
 * </ul>
 * Each part is its value over its {@link LoadLimits limit}, clamped to 0..1. With a JMX address the signal also
 * carries the node's client read p99 ({@link ClientReadLatency}), which the throttle compares with its baseline.
 */
public final class LoadProbe {

    static final Set<String> SYSTEM_KEYSPACES = Set.of(
            "system",
            "system_auth",
            "system_distributed",
            "system_schema",
            "system_traces",
            "system_views",
            "system_virtual_schema");

    private final CqlRunner cql;
    private final String localDatacenter;
    private final LoadLimits limits;
    private final Optional<PendingCompactions> pendingCompactions;
    private final Optional<NodeCpu> cpu;
    private final Optional<ClientReadLatency> readLatency;
    private final Clock clock;

    public LoadProbe(CqlRunner cql, String localDatacenter, LoadLimits limits, Optional<NodeJmx> jmx, Clock clock) {
        this.cql = cql;
        this.localDatacenter = localDatacenter;
        this.limits = limits;
        this.pendingCompactions = jmx.map(PendingCompactions::new);
        this.cpu = jmx.map(NodeCpu::new);
        this.readLatency =
                jmx.map(node -> new ClientReadLatency(node, cql.consistency().name(), cql::readsSent, clock));
        this.clock = clock;
    }

    public LoadSignal measure() {
        List<Node> nodes = cql.session().getMetadata().getNodes().values().stream()
                .filter(node ->
                        node.getState() == NodeState.UP && Objects.equals(localDatacenter, node.getDatacenter()))
                .toList();
        if (nodes.isEmpty()) {
            // an empty signal would read as "idle": say instead that the store cannot be measured now
            throw new StoreException.Retriable(
                    "no Cassandra node of datacenter '" + localDatacenter + "' is up to measure the load of", null);
        }
        List<Statement<?>> queries = new ArrayList<>();
        for (Node node : nodes) {
            queries.add(onNode("SELECT name, pending_tasks, blocked_tasks FROM system_views.thread_pools", node));
            queries.add(onNode("SELECT keyspace_name, count, p99th_ms FROM system_views.local_write_latency", node));
            queries.add(onNode("SELECT keyspace_name, count, p99th_ms FROM system_views.local_read_latency", node));
        }
        List<List<Row>> results = cql.readAll("reading the load of the Cassandra nodes", queries);

        Map<String, Double> worst = new HashMap<>();
        for (int n = 0; n < nodes.size(); n++) {
            for (Row pool : results.get(3 * n)) {
                double backlog = number(pool, "pending_tasks") + number(pool, "blocked_tasks");
                switch (pool.getString("name")) {
                    case "MutationStage" -> max(worst, "mutation_backlog", backlog);
                    case "ReadStage" -> max(worst, "read_backlog", backlog);
                    case "CompactionExecutor" -> max(worst, "compaction_backlog", backlog);
                    default -> {}
                }
            }
            max(worst, "write_latency", highestUserP99(results.get(3 * n + 1)));
            max(worst, "read_latency", highestUserP99(results.get(3 * n + 2)));
        }

        Map<String, Double> parts = new HashMap<>();
        parts.put(
                "mutation_backlog",
                LoadSignal.ratio(worst.getOrDefault("mutation_backlog", 0.0), limits.mutationBacklog()));
        parts.put("read_backlog", LoadSignal.ratio(worst.getOrDefault("read_backlog", 0.0), limits.readBacklog()));
        parts.put(
                "compaction_backlog",
                LoadSignal.ratio(worst.getOrDefault("compaction_backlog", 0.0), limits.compactionBacklog()));
        parts.put(
                "write_latency",
                LoadSignal.ratio(worst.getOrDefault("write_latency", 0.0), limits.writeLatencyMillis()));
        parts.put(
                "read_latency", LoadSignal.ratio(worst.getOrDefault("read_latency", 0.0), limits.readLatencyMillis()));
        pendingCompactions
                .flatMap(PendingCompactions::read)
                .ifPresent(pending ->
                        parts.put("pending_compactions", LoadSignal.ratio(pending, limits.pendingCompactions())));
        cpu.flatMap(NodeCpu::read).ifPresent(load -> parts.put("cpu", load));
        return LoadSignal.of(parts, clock.instant())
                .withReadLatency(readLatency.flatMap(ClientReadLatency::read).orElse(null));
    }

    private Statement<?> onNode(String query, Node node) {
        // virtual tables are local to a node and accept only consistency ONE / LOCAL_ONE
        return SimpleStatement.newInstance(query)
                .setNode(node)
                .setIdempotent(true)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_ONE);
    }

    private static double highestUserP99(List<Row> tables) {
        double highest = 0;
        for (Row table : tables) {
            if (!SYSTEM_KEYSPACES.contains(table.getString("keyspace_name")) && number(table, "count") > 0) {
                highest = Math.max(highest, number(table, "p99th_ms"));
            }
        }
        return highest;
    }

    private static double number(Row row, String column) {
        Object value = row.getObject(column);
        return value instanceof Number number ? number.doubleValue() : 0;
    }

    private static void max(Map<String, Double> worst, String part, double value) {
        worst.merge(part, value, Math::max);
    }
}
