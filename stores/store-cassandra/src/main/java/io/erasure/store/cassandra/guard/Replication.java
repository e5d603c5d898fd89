package io.erasure.store.cassandra.guard;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where a keyspace keeps its replicas, from {@code system_schema.keyspaces.replication}.
 *
 * @param strategy      the strategy's simple class name ({@code SimpleStrategy}, {@code NetworkTopologyStrategy}, ...)
 * @param factor        full replicas of each row in the whole cluster (transient replicas not counted)
 * @param perDatacenter replicas per data center; empty when the strategy does not place by data center
 *                      (then every node may hold replicas)
 */
public record Replication(String strategy, int factor, Map<String, Integer> perDatacenter) {

    public Replication {
        Objects.requireNonNull(strategy, "strategy");
        if (factor < 0) {
            throw new IllegalArgumentException("replication factor must be >= 0, got " + factor);
        }
        perDatacenter = Map.copyOf(perDatacenter);
    }

    public static Replication simple(int factor) {
        return new Replication("SimpleStrategy", factor, Map.of());
    }

    public static Replication perDatacenter(Map<String, Integer> factors) {
        return new Replication(
                "NetworkTopologyStrategy",
                factors.values().stream().mapToInt(Integer::intValue).sum(),
                factors);
    }

    /**
     * Reads a keyspace's replication options. A strategy this code does not know is taken as replicating
     * to every node (the guard then checks every node): being wrong that way refuses too often, never too
     * rarely.
     */
    public static Replication of(Map<String, String> options) {
        String strategy = options.getOrDefault("class", "unknown");
        strategy = strategy.substring(strategy.lastIndexOf('.') + 1);
        if (strategy.equals("LocalStrategy")) {
            return new Replication(strategy, 1, Map.of());
        }
        if (options.containsKey("replication_factor") && !strategy.equals("NetworkTopologyStrategy")) {
            return new Replication(strategy, full(options.get("replication_factor")), Map.of());
        }
        Map<String, Integer> datacenters = new LinkedHashMap<>();
        options.forEach((name, value) -> {
            if (!name.equals("class") && !name.equals("replication_factor")) {
                datacenters.put(name, full(value));
            }
        });
        if (datacenters.isEmpty()) {
            return new Replication(strategy, Integer.MAX_VALUE, Map.of());
        }
        return new Replication(
                strategy,
                datacenters.values().stream().mapToInt(Integer::intValue).sum(),
                datacenters);
    }

    /** Does a node of {@code datacenter} hold replicas of this keyspace? */
    public boolean holdsReplicasIn(String datacenter) {
        return perDatacenter.isEmpty() ? factor > 0 : perDatacenter.getOrDefault(datacenter, 0) > 0;
    }

    public String describe() {
        return factor == Integer.MAX_VALUE
                ? strategy
                : perDatacenter.isEmpty() ? Integer.toString(factor) : factor + " " + perDatacenter;
    }

    /** "3" or, with transient replication, "3/1": the full replicas. */
    private static int full(String value) {
        String replicas = value.trim();
        int slash = replicas.indexOf('/');
        try {
            int all = Integer.parseInt(slash < 0 ? replicas : replicas.substring(0, slash));
            int transientOnes = slash < 0 ? 0 : Integer.parseInt(replicas.substring(slash + 1));
            return all - transientOnes;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("replication factor '" + value + "' is not a number", e);
        }
    }
}
