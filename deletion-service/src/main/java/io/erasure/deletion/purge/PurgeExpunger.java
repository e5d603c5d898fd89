package io.erasure.deletion.purge;

import io.erasure.deletion.purge.DatasetDeletions.LastDelete;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.PurgeTracking;
import io.erasure.store.spi.StoreAdapter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks a store to purge deleted data that is due ({@link PurgeTracking#expungeDeleted}: OpenSearch's force merge,
 * where its connection allows it), within the throttle's view of the store: only once the data is purgeable and still
 * on disk, and only while the store's utilization is below half the throttle's target, since a merge is paced by no
 * rate and competes with live traffic for the disks. Once per dataset per delete (a live index always holds some
 * deleted documents, so "still on disk" alone would merge it every pass), at most one per store per pass. A store's
 * utilization is asked once per pass, of the throttle ({@code AdaptiveThrottle#utilization}): an unknown one starts
 * nothing. Each replica asks on its own; the store refuses a second merge while one runs.
 * Thread-safe (one pass at a time).
 */
public class PurgeExpunger {

    private static final Logger log = LoggerFactory.getLogger(PurgeExpunger.class);

    private final Supplier<List<LastDelete>> deletions;
    private final Supplier<List<OnDisk>> onDisk;
    private final Function<String, StoreAdapter> stores;
    private final Function<String, OptionalDouble> utilizationOf;
    private final double maxUtilization;
    private final Clock clock;
    /** Per dataset, the last delete its merge was started for. */
    private final Map<String, Instant> expungedFor = new HashMap<>();

    /**
     * @param utilizationOf  a store's utilization as the throttle sees it; empty when it cannot be told
     * @param maxUtilization the store's utilization at or above which nothing is started: half the throttle's target
     */
    public PurgeExpunger(
            Supplier<List<LastDelete>> deletions,
            Supplier<List<OnDisk>> onDisk,
            Function<String, StoreAdapter> stores,
            Function<String, OptionalDouble> utilizationOf,
            double maxUtilization,
            Clock clock) {
        this.deletions = deletions;
        this.onDisk = onDisk;
        this.stores = stores;
        this.utilizationOf = utilizationOf;
        this.maxUtilization = maxUtilization;
        this.clock = clock;
    }

    /** One pass: what was started, one line per dataset. */
    public synchronized List<String> expungeDue() {
        Map<String, OnDisk> lines = new HashMap<>();
        onDisk.get().forEach(line -> lines.put(line.dataset(), line));
        Instant now = clock.instant();
        Map<String, Boolean> startable = new HashMap<>(); // per store: headroom now, and nothing started this pass
        List<String> started = new ArrayList<>();
        for (LastDelete last : deletions.get()) {
            DatasetSpec spec = last.spec();
            OnDisk line = lines.get(spec.name());
            if (line == null
                    || line.error() != null
                    || !Boolean.TRUE.equals(line.stillOnDisk())
                    || line.purgeableAt() == null
                    || line.purgeableAt().isAfter(now)) {
                continue; // purged, not yet purgeable, or unknown: nothing is asked on a guess
            }
            Instant before = expungedFor.get(spec.name());
            if (before != null && !last.deletedAt().isAfter(before)) {
                // a live index always has some deleted documents: one merge per delete, not one per pass
                continue;
            }
            String store = spec.connectionRef();
            try {
                StoreAdapter adapter = stores.apply(store);
                if (!(adapter instanceof PurgeTracking tracking) || !startable.computeIfAbsent(store, this::headroom)) {
                    continue;
                }
                Optional<String> what = tracking.expungeDeleted(spec);
                if (what.isPresent()) {
                    expungedFor.put(spec.name(), last.deletedAt());
                    startable.put(store, false);
                    started.add(spec.name() + ": " + what.get());
                    log.info("purge of {}'s deleted data started: {}", spec.name(), what.get());
                }
            } catch (RuntimeException e) {
                startable.put(store, false);
                log.warn("purge of {}'s deleted data not started: {}", spec.name(), e.toString());
            }
        }
        return started;
    }

    private boolean headroom(String store) {
        OptionalDouble utilization = utilizationOf.apply(store);
        if (utilization.isEmpty() || utilization.getAsDouble() >= maxUtilization) {
            log.info(
                    "purge on store {} waits: utilization {} is unknown or at or over {}",
                    store,
                    utilization.isEmpty() ? "unknown" : String.format("%.2f", utilization.getAsDouble()),
                    maxUtilization);
            return false;
        }
        return true;
    }
}
