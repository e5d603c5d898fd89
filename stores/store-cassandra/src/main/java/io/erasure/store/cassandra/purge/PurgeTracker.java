package io.erasure.store.cassandra.purge;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.cassandra.guard.TableSettings;
import io.erasure.store.cassandra.guard.TableSettingsReader;
import io.erasure.store.cassandra.purge.SSTableTombstones.Estimate;
import io.erasure.store.spi.PurgeStatus;
import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When a run's tombstones become purgeable, and whether compaction has removed them: "deleted but still on disk".
 *
 * <p>A tombstone is purgeable {@code gc_grace_seconds} after it was written; until then it is on disk (memtable,
 * commit log or SSTable) whatever compaction does. After that, the table's SSTable statistics
 * ({@link SSTableTombstones}) say whether purgeable tombstones remain. They count every purgeable tombstone of the
 * table, not this run's alone, and only from a minute after (Cassandra rounds their deletion times up to the
 * minute), so the answer errs one way only: "still on disk" may be a tombstone of another run, "gone" is gone.
 * Only the node at the connection's JMX address is asked; with several replicas each compacts on its own, so
 * ask each (one connection per node) for a cluster-wide answer. Tombstones not yet flushed from a memtable are
 * not in the statistics. Thread-safe.
 */
public final class PurgeTracker {

    /**
     * Cassandra's SSTable statistics keep tombstone deletion times rounded up to this
     * ({@code cassandra.streaminghistogram.roundseconds}).
     */
    public static final Duration STATISTICS_ROUNDING = Duration.ofSeconds(60);

    private final TableSettingsReader settings;
    private final Optional<SSTableTombstones> sstables;
    private final String connectionRef;
    private final Clock clock;

    public PurgeTracker(
            TableSettingsReader settings, Optional<SSTableTombstones> sstables, String connectionRef, Clock clock) {
        this.settings = settings;
        this.sstables = sstables;
        this.connectionRef = connectionRef;
        this.clock = clock;
    }

    /**
     * The purge status of the tombstones a run wrote into {@code spec}'s table, its last delete executed at
     * {@code deletedAt}.
     */
    public PurgeStatus status(DatasetSpec spec, Instant deletedAt) {
        SSTableTombstones tombstones = sstables.orElseThrow(() -> new StoreException.Fatal("the purge status of "
                + spec.quotedTable()
                + " is read from SSTable statistics over JMX; set 'jmx-port' (and 'jmx-host' unless"
                + " it is the first contact point) on connection '" + connectionRef + "'"));
        TableSettings table = settings.read(spec);
        return judge(
                table.name(),
                deletedAt,
                table.gcGrace(),
                tombstones.read(table.keyspace(), table.table()),
                clock.instant());
    }

    static PurgeStatus judge(String table, Instant deletedAt, Duration gcGrace, Estimate estimate, Instant now) {
        Instant purgeableAt = deletedAt.plus(gcGrace);
        Instant countedFrom = purgeableAt.plus(STATISTICS_ROUNDING);
        long onDisk = estimate.droppableTombstones();
        String explanation;
        boolean stillOnDisk = true;
        if (now.isBefore(purgeableAt)) {
            explanation = "not purgeable before " + purgeableAt + " (deleted at " + deletedAt + " + gc_grace_seconds "
                    + gcGrace.getSeconds() + "): Cassandra keeps every tombstone at least that long";
        } else if (now.isBefore(countedFrom)) {
            explanation = "purgeable since " + purgeableAt
                    + ", but Cassandra's SSTable statistics count these tombstones" + " only from " + countedFrom
                    + " (deletion times are kept rounded up to the minute); ask again then";
        } else if (onDisk > 0) {
            explanation =
                    "purgeable since " + purgeableAt + ", but about " + onDisk + " purgeable tombstones are still in "
                            + estimate.liveSSTables() + " SSTables of " + table + " on node " + estimate.node()
                            + " (DroppableTombstoneRatio " + estimate.droppableRatio()
                            + "): compaction has not removed them yet,"
                            + " and this run's may be among them";
        } else {
            stillOnDisk = false;
            explanation = "purgeable since " + purgeableAt + " and no purgeable tombstone is left in the SSTables of "
                    + table + " on node " + estimate.node() + ": compaction has removed them";
        }
        return new PurgeStatus(table, deletedAt, gcGrace, purgeableAt, onDisk, stillOnDisk, explanation);
    }
}
