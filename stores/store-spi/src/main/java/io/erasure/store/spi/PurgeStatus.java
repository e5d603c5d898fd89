package io.erasure.store.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Whether the tombstones (delete markers) a run wrote into a table are still on disk ({@link PurgeTracking}).
 *
 * @param table            the table, as the store names it (Cassandra: {@code keyspace.table})
 * @param deletedAt        when the run's last delete into the table was executed (not its cut-off): its tombstones
 *                         carry the time they were written, so a time before the last delete makes them look
 *                         purgeable too early
 * @param gcGrace          how long the store keeps every marker before it may purge them: Cassandra's table
 *                         {@code gc_grace_seconds} now (compaction uses the current value)
 * @param purgeableAt      {@code deletedAt + gcGrace}: before it Cassandra keeps every tombstone; after it compaction
 *                         may drop them
 * @param tombstonesOnDisk estimate of the table's purgeable tombstones (older than {@code gcGrace}) still in its
 *                         SSTables on the node asked, of every run and expired TTL alike; younger tombstones are not
 *                         counted (Cassandra does not expose them)
 * @param stillOnDisk      false only when the run's tombstones are purgeable and no purgeable tombstone is left in the
 *                         table's SSTables on the node asked; true when they cannot have been purged yet or may remain
 * @param explanation      one sentence for people: which of the above, and what is waited for
 */
public record PurgeStatus(
        String table,
        Instant deletedAt,
        Duration gcGrace,
        Instant purgeableAt,
        long tombstonesOnDisk,
        boolean stillOnDisk,
        String explanation) {

    public PurgeStatus {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(deletedAt, "deletedAt");
        Objects.requireNonNull(gcGrace, "gcGrace");
        Objects.requireNonNull(purgeableAt, "purgeableAt");
        Objects.requireNonNull(explanation, "explanation");
        if (tombstonesOnDisk < 0) {
            throw new IllegalArgumentException("tombstonesOnDisk must be >= 0, got " + tombstonesOnDisk);
        }
    }
}
