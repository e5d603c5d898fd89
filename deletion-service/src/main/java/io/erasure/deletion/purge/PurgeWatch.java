package io.erasure.deletion.purge;

import io.erasure.deletion.purge.DatasetDeletions.LastDelete;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.PurgeTracking;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.support.stores.StoreAdapterPool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * "Deleted but still on disk" for every dataset with executed deletes whose store tracks purges
 * ({@link PurgeTracking}; Cassandra today). Reading a store's statistics takes a JMX round trip, so each answer is
 * reused for {@code reuseFor} unless the dataset was deleted from again or its spec changed. A store that cannot be
 * asked gives its dataset a line with the reason instead of failing the whole list. Thread-safe.
 */
public class PurgeWatch {

    private record Asked(DatasetSpec spec, Instant deletedAt, OnDisk answer) {}

    private final DatasetDeletions deletions;
    private final StoreAdapterPool stores;
    private final Duration reuseFor;
    private final Clock clock;
    private final Map<String, Asked> asked = new ConcurrentHashMap<>();

    public PurgeWatch(DatasetDeletions deletions, StoreAdapterPool stores, Duration reuseFor, Clock clock) {
        this.deletions = deletions;
        this.stores = stores;
        this.reuseFor = reuseFor;
        this.clock = clock;
    }

    /** One line per dataset, by name. */
    public List<OnDisk> datasets() {
        List<OnDisk> lines = new ArrayList<>();
        for (LastDelete last : deletions.withDeletes()) {
            DatasetSpec spec = last.spec();
            Asked before = asked.get(spec.name());
            Instant now = clock.instant();
            if (before != null
                    && before.spec().equals(spec)
                    && before.deletedAt().equals(last.deletedAt())
                    && before.answer().checkedAt().plus(reuseFor).isAfter(now)) {
                lines.add(before.answer());
                continue;
            }
            OnDisk answer = ask(last, now);
            if (answer != null) {
                asked.put(spec.name(), new Asked(spec, last.deletedAt(), answer));
                lines.add(answer);
            }
        }
        return lines;
    }

    /** The store's answer, the reason it could not be asked, or null when its store does not track purges. */
    private OnDisk ask(LastDelete last, Instant now) {
        DatasetSpec spec = last.spec();
        String table = spec.namespace() + "." + spec.table();
        try {
            StoreAdapter adapter = stores.adapter(spec.connectionRef());
            if (!(adapter instanceof PurgeTracking tracking)) {
                return null;
            }
            return OnDisk.of(spec.name(), tracking.purgeStatus(spec, last.deletedAt()), now);
        } catch (RuntimeException e) {
            return OnDisk.failed(spec.name(), table, last.deletedAt(), String.valueOf(e.getMessage()), now);
        }
    }
}
