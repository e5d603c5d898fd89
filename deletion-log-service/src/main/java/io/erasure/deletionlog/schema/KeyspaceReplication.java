package io.erasure.deletionlog.schema;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the {@code deletion_log} keyspace is replicated when it is created ({@code erasure.deletion-log.replication.*}).
 *
 * @param strategy    {@code simple} (one datacenter, local runs) or {@code network-topology} (production)
 * @param factor      replicas for {@code simple}
 * @param datacenters replicas per datacenter for {@code network-topology}, e.g. {@code dc1: 3}
 */
@ConfigurationProperties("erasure.deletion-log.replication")
public record KeyspaceReplication(
        @DefaultValue("simple") Strategy strategy,
        @DefaultValue("1") int factor,
        Map<String, Integer> datacenters) {

    private static final Pattern DATACENTER_NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    public enum Strategy {
        SIMPLE,
        NETWORK_TOPOLOGY
    }

    public KeyspaceReplication {
        Objects.requireNonNull(
                strategy, "erasure.deletion-log.replication.strategy is required: simple or network-topology");
        datacenters = datacenters == null ? Map.of() : Map.copyOf(datacenters);
        switch (strategy) {
            case SIMPLE -> {
                if (factor < 1) {
                    throw new IllegalArgumentException(
                            "erasure.deletion-log.replication.factor must be at least 1, was " + factor);
                }
            }
            case NETWORK_TOPOLOGY -> {
                if (datacenters.isEmpty()) {
                    throw new IllegalArgumentException(
                            "erasure.deletion-log.replication.datacenters is required for network-topology: "
                                    + "name each datacenter and its replica count, e.g."
                                    + " erasure.deletion-log.replication.datacenters.dc1=3");
                }
                datacenters.forEach((datacenter, replicas) -> {
                    if (!DATACENTER_NAME.matcher(datacenter).matches()) {
                        throw new IllegalArgumentException("erasure.deletion-log.replication.datacenters: '"
                                + datacenter + "' is not a datacenter name (letters, digits, '_', '.', '-')");
                    }
                    if (replicas == null || replicas < 1) {
                        throw new IllegalArgumentException("erasure.deletion-log.replication.datacenters." + datacenter
                                + " must be at least 1, was " + replicas);
                    }
                });
            }
        }
    }

    /** The CQL replication map, e.g. {@code {'class': 'SimpleStrategy', 'replication_factor': 1}}. */
    public String toCql() {
        return switch (strategy) {
            case SIMPLE -> "{'class': 'SimpleStrategy', 'replication_factor': " + factor + "}";
            case NETWORK_TOPOLOGY ->
                new TreeMap<>(datacenters)
                        .entrySet().stream()
                                .map(dc -> "'" + dc.getKey() + "': " + dc.getValue())
                                .collect(Collectors.joining(", ", "{'class': 'NetworkTopologyStrategy', ", "}"));
        };
    }
}
