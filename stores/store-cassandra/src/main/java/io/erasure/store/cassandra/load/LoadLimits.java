package io.erasure.store.cassandra.load;

import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;

/**
 * What counts as a node with no headroom left, per part of the load signal. Each part is its
 * measurement divided by its limit (clamped to 1).
 *
 * @param mutationBacklog    pending + blocked {@code MutationStage} tasks ({@code load.mutation-backlog}, default 128)
 * @param readBacklog        pending + blocked {@code ReadStage} tasks ({@code load.read-backlog}, default 128)
 * @param compactionBacklog  pending + blocked {@code CompactionExecutor} tasks ({@code load.compaction-backlog},
 *                           default 16)
 * @param writeLatencyMillis p99 local write latency of the busiest table ({@code load.write-latency-ms}, default 20)
 * @param readLatencyMillis  p99 local read latency of the busiest table ({@code load.read-latency-ms}, default 50)
 * @param pendingCompactions JMX {@code Compaction.PendingTasks} ({@code load.pending-compactions}, default 100)
 */
public record LoadLimits(
        int mutationBacklog,
        int readBacklog,
        int compactionBacklog,
        int writeLatencyMillis,
        int readLatencyMillis,
        int pendingCompactions) {

    public static final LoadLimits DEFAULTS = new LoadLimits(128, 128, 16, 20, 50, 100);

    public LoadLimits {
        if (mutationBacklog < 1
                || readBacklog < 1
                || compactionBacklog < 1
                || writeLatencyMillis < 1
                || readLatencyMillis < 1
                || pendingCompactions < 1) {
            throw new IllegalArgumentException("every load limit must be >= 1");
        }
    }

    public static LoadLimits from(StoreConnection connection) {
        return new LoadLimits(
                limit(connection, "load.mutation-backlog", DEFAULTS.mutationBacklog),
                limit(connection, "load.read-backlog", DEFAULTS.readBacklog),
                limit(connection, "load.compaction-backlog", DEFAULTS.compactionBacklog),
                limit(connection, "load.write-latency-ms", DEFAULTS.writeLatencyMillis),
                limit(connection, "load.read-latency-ms", DEFAULTS.readLatencyMillis),
                limit(connection, "load.pending-compactions", DEFAULTS.pendingCompactions));
    }

    private static int limit(StoreConnection connection, String name, int defaultValue) {
        int value = connection.intSetting(name, defaultValue);
        if (value < 1) {
            throw new StoreException.Fatal("connection '" + connection.ref() + "' setting '" + name
                    + "' must be >= 1 (the value that counts as no headroom left), got " + value);
        }
        return value;
    }
}
