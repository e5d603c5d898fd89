package io.erasure.store.cassandra.guard;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What decides whether a table's tombstones can reach every replica before Cassandra may purge them.
 *
 * @param gcGrace                the table's {@code gc_grace_seconds}
 * @param lastRepair             the end of the latest successful repair of the table the adapter knows of
 *                               ({@code system_distributed.repair_history}, looked up at most {@code gcGrace} back);
 *                               empty when none is recorded in that window or the history cannot be read
 * @param tombstoneWarnThreshold the node's {@code tombstone_warn_threshold} ({@code system_views.settings});
 *                               {@code <= 0} disables the tombstone warning
 */
public record TableSettings(
        String keyspace,
        String table,
        Duration gcGrace,
        Replication replication,
        Optional<Instant> lastRepair,
        int tombstoneWarnThreshold) {

    /** Cassandra's default {@code tombstone_warn_threshold}. */
    public static final int DEFAULT_TOMBSTONE_WARN_THRESHOLD = 1000;

    public TableSettings {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(gcGrace, "gcGrace");
        Objects.requireNonNull(replication, "replication");
        Objects.requireNonNull(lastRepair, "lastRepair");
        if (gcGrace.isNegative()) {
            throw new IllegalArgumentException("gcGrace must not be negative, got " + gcGrace);
        }
    }

    /** {@code keyspace.table}, as messages name it. */
    public String name() {
        return keyspace + "." + table;
    }
}
