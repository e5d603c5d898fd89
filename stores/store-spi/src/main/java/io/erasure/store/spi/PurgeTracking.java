package io.erasure.store.spi;

import io.erasure.model.dataset.DatasetSpec;
import java.time.Instant;
import java.util.Optional;

/**
 * An optional capability of a {@link StoreAdapter} whose deletes leave markers on disk until the store itself
 * removes them later (Cassandra's tombstones, removed by compaction once {@code gc_grace_seconds} has passed):
 * "deleted but still on disk". Callers test for it ({@code adapter instanceof PurgeTracking}); stores that delete
 * in place (a relational {@code DELETE} followed by the store's own vacuum, a Redis {@code DEL}) do not offer it.
 *
 * <h2>What "still on disk" means, and its limits</h2>
 * A deleted row is unreadable at once, but its bytes, and the marker that hides them, stay in the store's files
 * until they are purged. {@link PurgeStatus#stillOnDisk()} is true until the store says that this can no longer be
 * the case. The answer errs one way only: "still on disk" may be caused by another run's (or an expired TTL's)
 * markers, but "purged" means none is left that could be this run's. It covers only what the store exposes: the
 * node or nodes the connection asks (with several replicas each purges on its own), files on disk and not
 * memtables, and never backups, snapshots or copies made outside the store.
 *
 * <h2>Threading and errors</h2>
 * Thread-safe like the adapter; reads statistics only, never changes data, may take a second (a management
 * connection such as JMX). {@link StoreException.Fatal} when the connection lacks what the status is read from
 * (the message names the setting), {@link StoreException.Retriable} when the store cannot be asked now.
 */
public interface PurgeTracking {

    /**
     * Whether the deletes executed into {@code spec}'s table, the last of them at {@code deletedAt}, are still on
     * disk. {@code deletedAt} must be when the last delete was executed (or later), never the run's cut-off: the
     * markers carry the time they were written, so an earlier time would call them purgeable too early.
     */
    PurgeStatus purgeStatus(DatasetSpec spec, Instant deletedAt);

    /**
     * Asks the store to purge {@code spec}'s deleted data now rather than when it gets to it (OpenSearch:
     * {@code _forcemerge?only_expunge_deletes=true} on the dataset's index), where the store can and the connection
     * allows it. Returns what it started, or empty: the store purges only on its own (the default), the connection
     * does not allow it, or a purge is already running. It is heavy on the store's disks and not paced by rows: the
     * caller asks only once the data is purgeable ({@link PurgeStatus#purgeableAt()} has passed) and while the store
     * has headroom. Never changes data that is not deleted.
     */
    default Optional<String> expungeDeleted(DatasetSpec spec) {
        return Optional.empty();
    }
}
