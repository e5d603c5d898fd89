package io.erasure.controlplane.dashboard;

import io.erasure.model.event.ThrottleSample;
import io.erasure.model.event.ThrottleSample.StoreThrottle;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The dashboard's throttle history: every deletion replica's samples ({@link ThrottleSample}) kept for
 * {@code erasure.dashboard.throttle-history} (24 h) in {@code throttle_samples}, and read back per store as a series
 * of time buckets, the replicas added up (rates, limits and caps are per replica; the utilization is the store's own,
 * so its highest reading counts). The history outlives the page and every replica, and shows them all, not just the
 * replica a browser happened to reach.
 */
public class ThrottleHistory {

    /** The most points a series has: a chart is a few hundred pixels wide. */
    static final int MAX_POINTS = 720;

    private static final String INSERT = """
            INSERT INTO throttle_samples (replica, store, sampled_at, limit_rps, floor_rps, cap_rps, rate_rps,
                                          utilization, decision, reason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING""";

    // per replica first (its average over the bucket), then the replicas added up
    private static final String BUCKETS = """
            SELECT store, bucket, sum(rate) AS rate, sum(lim) AS lim, max(util) AS util
            FROM (SELECT store, replica,
                         date_bin(CAST(? AS interval), sampled_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket,
                         avg(rate_rps) AS rate, avg(limit_rps) AS lim, max(utilization) AS util
                  FROM throttle_samples
                  WHERE sampled_at >= ? AND sampled_at <= ?
                  GROUP BY store, replica, bucket) per_replica
            GROUP BY store, bucket
            ORDER BY store, bucket""";

    // each replica's newest sample of the store, if it is recent enough to be the replica's current state
    private static final String LATEST = """
            SELECT DISTINCT ON (store, replica) store, replica, sampled_at, limit_rps, floor_rps, cap_rps, rate_rps,
                   utilization, decision, reason
            FROM throttle_samples
            WHERE sampled_at >= ? AND sampled_at <= ?
            ORDER BY store, replica, sampled_at DESC""";

    /** One bucket of a store's series; values null where no replica reported in it (a gap in the chart). */
    public record Point(
            Instant t,
            @Nullable Double rate,
            @Nullable Double limit,
            @Nullable Double utilization) {}

    /**
     * Where a store stands now: its replicas' newest samples added up.
     *
     * @param replicas  replicas that reported the store within the last few sample intervals
     * @param decisions each of those replicas' last control-step decision and reason, e.g. {@code hold: at_cap}
     */
    public record Current(
            Instant sampledAt,
            int replicas,
            long limit,
            long floor,
            long cap,
            long rate,
            double utilization,
            Map<String, String> decisions) {}

    public record StoreHistory(String store, @Nullable Current current, List<Point> points) {}

    /**
     * @param stepSeconds the width of one bucket: the window over {@value #MAX_POINTS}, at least the sample interval
     */
    public record History(Instant from, Instant to, long stepSeconds, List<StoreHistory> stores) {}

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final Duration kept;
    private final Duration sampleInterval;

    public ThrottleHistory(JdbcTemplate jdbc, Clock clock, Duration kept, Duration sampleInterval) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.kept = kept;
        this.sampleInterval = sampleInterval;
    }

    public Duration kept() {
        return kept;
    }

    /** Keeps a sample; one already kept (the same replica, store and time) is kept once. */
    public void record(ThrottleSample sample) {
        Timestamp at = Timestamp.from(sample.sampledAt());
        List<Object[]> rows = new ArrayList<>();
        for (StoreThrottle s : sample.stores()) {
            rows.add(new Object[] {
                sample.replica(),
                s.store(),
                at,
                s.limit(),
                s.floor(),
                s.cap(),
                s.rate(),
                s.utilization(),
                s.decision(),
                s.reason()
            });
        }
        jdbc.batchUpdate(INSERT, rows);
    }

    /** Deletes samples older than the history keeps; returns how many. */
    public int prune() {
        return jdbc.update(
                "DELETE FROM throttle_samples WHERE sampled_at < ?",
                Timestamp.from(clock.instant().minus(kept)));
    }

    /** The last {@code window} of every store, at most {@value #MAX_POINTS} points each. */
    public History last(Duration window) {
        if (window.compareTo(Duration.ofMinutes(1)) < 0 || window.compareTo(kept) > 0) {
            throw new IllegalArgumentException("the window must be from 1 minute to the history kept ("
                    + kept.toMinutes() + " minutes, erasure.dashboard.throttle-history), got " + window.toMinutes()
                    + " minutes");
        }
        Instant to = clock.instant();
        Instant from = to.minus(window);
        Duration step = window.dividedBy(MAX_POINTS);
        if (step.compareTo(sampleInterval) < 0) {
            step = sampleInterval;
        }
        Duration bucket = step;
        Map<String, List<Point>> series = new LinkedHashMap<>();
        jdbc.query(
                BUCKETS,
                rs -> {
                    List<Point> points = series.computeIfAbsent(rs.getString("store"), s -> new ArrayList<>());
                    Instant t = rs.getObject("bucket", OffsetDateTime.class).toInstant();
                    if (!points.isEmpty()
                            && points.get(points.size() - 1)
                                    .t()
                                    .plus(bucket.multipliedBy(3))
                                    .isBefore(t)) {
                        // no replica reported for a while: the chart shows a gap, not a line across it
                        points.add(new Point(points.get(points.size() - 1).t().plus(bucket), null, null, null));
                    }
                    points.add(new Point(t, rs.getDouble("rate"), rs.getDouble("lim"), rs.getDouble("util")));
                },
                bucket.toSeconds() + " seconds",
                Timestamp.from(from),
                Timestamp.from(to));
        Map<String, Current> current = current(to);
        List<StoreHistory> stores = new ArrayList<>();
        for (Map.Entry<String, List<Point>> e : series.entrySet()) {
            stores.add(new StoreHistory(e.getKey(), current.get(e.getKey()), e.getValue()));
        }
        return new History(from, to, step.toSeconds(), stores);
    }

    /** Per store, the newest samples of the replicas that reported it within three sample intervals. */
    private Map<String, Current> current(Instant now) {
        Map<String, Current> byStore = new LinkedHashMap<>();
        jdbc.query(
                LATEST,
                rs -> {
                    String store = rs.getString("store");
                    Instant at =
                            rs.getObject("sampled_at", OffsetDateTime.class).toInstant();
                    Current before = byStore.get(store);
                    Map<String, String> decisions = new LinkedHashMap<>(before == null ? Map.of() : before.decisions());
                    decisions.put(rs.getString("replica"), rs.getString("decision") + ": " + rs.getString("reason"));
                    byStore.put(
                            store,
                            new Current(
                                    before == null || at.isAfter(before.sampledAt()) ? at : before.sampledAt(),
                                    (before == null ? 0 : before.replicas()) + 1,
                                    (before == null ? 0 : before.limit()) + rs.getInt("limit_rps"),
                                    (before == null ? 0 : before.floor()) + rs.getInt("floor_rps"),
                                    (before == null ? 0 : before.cap()) + rs.getInt("cap_rps"),
                                    (before == null ? 0 : before.rate()) + rs.getInt("rate_rps"),
                                    Math.max(before == null ? 0 : before.utilization(), rs.getDouble("utilization")),
                                    decisions));
                },
                Timestamp.from(now.minus(sampleInterval.multipliedBy(3))),
                Timestamp.from(now));
        return byStore;
    }
}
