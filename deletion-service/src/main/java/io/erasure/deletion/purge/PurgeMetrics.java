package io.erasure.deletion.purge;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Time to physical purge, as gauges per dataset whose store keeps delete markers ({@link PurgeWatch}; Cassandra):
 *
 * <ul>
 *   <li>{@value #WAITING}: how long the dataset's deleted rows have waited on disk since its last delete (0 once
 *       the store reports them purged): the time to physical purge so far;</li>
 *   <li>{@value #PAST_GRACE}: how far past their purgeable time (last delete + {@code gc_grace_seconds}) they are
 *       still on disk: compaction has not reached them, what the alert watches;</li>
 *   <li>{@value #TOMBSTONES}: the store's estimate of purgeable markers still on disk in the dataset's table.</li>
 * </ul>
 *
 * Refreshed every {@code erasure.deletion.purge-metrics-interval} (5 min): asking a store takes a JMX round trip; the
 * ages are computed when scraped, from the store's last answer. A dataset whose store cannot be asked keeps that
 * answer (counted in {@value #CHECKS} as failed), so an unreachable node never makes a backlog look purged. The ages
 * count from the dataset's last delete: a dataset deleted from more often than its gc_grace plus a week never looks
 * overdue by them, which {@value #TOMBSTONES} (purgeable markers still on disk) shows instead. Every replica asks the
 * same stores: read them with {@code max by (dataset)}.
 */
public class PurgeMetrics {

    private static final Logger log = LoggerFactory.getLogger(PurgeMetrics.class);

    static final String WAITING = "erasure.deletion.purge.waiting.seconds";
    static final String PAST_GRACE = "erasure.deletion.purge.past.grace.seconds";
    static final String TOMBSTONES = "erasure.deletion.purge.tombstones";
    static final String CHECKS = "erasure.deletion.purge.checks";

    /** What a store last answered for a dataset; the ages are computed from it whenever they are scraped. */
    private record Status(Instant lastDeletedAt, Instant purgeableAt, boolean stillOnDisk, double tombstones) {}

    private final Supplier<List<OnDisk>> lines;
    private final Clock clock;
    private final MultiGauge waiting;
    private final MultiGauge pastGrace;
    private final MultiGauge tombstones;
    private final Counter checked;
    private final Counter failed;
    private Map<String, Status> known = Map.of();

    public PurgeMetrics(Supplier<List<OnDisk>> lines, Clock clock, MeterRegistry meters) {
        this.lines = lines;
        this.clock = clock;
        this.waiting = MultiGauge.builder(WAITING)
                .description(
                        "how long the dataset's deleted rows have waited on disk since its last delete (0: purged)")
                .baseUnit("seconds")
                .register(meters);
        this.pastGrace = MultiGauge.builder(PAST_GRACE)
                .description("how far past last delete + gc_grace the dataset's deleted rows are still on disk")
                .baseUnit("seconds")
                .register(meters);
        this.tombstones = MultiGauge.builder(TOMBSTONES)
                .description("purgeable delete markers still on disk in the dataset's table (the store's estimate)")
                .register(meters);
        this.checked = Counter.builder(CHECKS)
                .tag("outcome", "ok")
                .description("purge status checks of a dataset's store")
                .register(meters);
        this.failed = Counter.builder(CHECKS)
                .tag("outcome", "failed")
                .description("purge status checks of a dataset's store")
                .register(meters);
    }

    /**
     * Asks every dataset's store again. A dataset whose store could not be asked keeps what it last answered, and its
     * ages keep growing, so an outage at the wrong moment cannot hide a purge that never comes; a dataset no longer
     * listed (its store no longer keeps delete markers, or it has no deletes left) loses its gauges.
     */
    public synchronized void refresh() {
        Map<String, Status> now = new TreeMap<>();
        for (OnDisk line : lines.get()) {
            if (line.error() != null || line.stillOnDisk() == null || line.purgeableAt() == null) {
                failed.increment();
                Status before = known.get(line.dataset());
                if (before != null) {
                    now.put(line.dataset(), before);
                }
                log.debug(
                        "purge status of {} unknown, its gauges keep its last answer: {}",
                        line.dataset(),
                        line.error());
                continue;
            }
            checked.increment();
            now.put(
                    line.dataset(),
                    new Status(
                            line.lastDeletedAt(),
                            line.purgeableAt(),
                            line.stillOnDisk(),
                            line.tombstonesOnDisk() == null ? 0 : line.tombstonesOnDisk()));
        }
        known = now;
        List<MultiGauge.Row<?>> waitingRows = new ArrayList<>();
        List<MultiGauge.Row<?>> pastGraceRows = new ArrayList<>();
        List<MultiGauge.Row<?>> tombstoneRows = new ArrayList<>();
        now.forEach((dataset, status) -> {
            Tags tags = Tags.of("dataset", dataset);
            waitingRows.add(MultiGauge.Row.of(
                    tags, status, s -> s.stillOnDisk() ? seconds(s.lastDeletedAt(), clock.instant()) : 0));
            pastGraceRows.add(MultiGauge.Row.of(
                    tags, status, s -> s.stillOnDisk() ? seconds(s.purgeableAt(), clock.instant()) : 0));
            tombstoneRows.add(MultiGauge.Row.of(tags, status.tombstones()));
        });
        waiting.register(waitingRows, true);
        pastGrace.register(pastGraceRows, true);
        tombstones.register(tombstoneRows, true);
    }

    private static double seconds(Instant since, Instant now) {
        return Math.max(0, Duration.between(since, now).toSeconds());
    }
}
