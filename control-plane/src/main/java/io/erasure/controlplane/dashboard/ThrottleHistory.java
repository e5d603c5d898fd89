package io.erasure.controlplane.dashboard;

import io.erasure.model.event.ThrottleSample;
import io.erasure.model.event.ThrottleSample.StoreThrottle;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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

    private static final String SAMPLES = """
            SELECT store, replica, sampled_at, rate_rps, limit_rps, utilization
            FROM throttle_samples
            WHERE sampled_at >= ? AND sampled_at <= ?
            ORDER BY store, replica, sampled_at""";

    // each replica's newest sample of the store, if this control plane received it recently: a replica's clock
    // running behind or ahead does not decide whether it still counts
    private static final String LATEST = """
            SELECT DISTINCT ON (store, replica) store, replica, sampled_at, limit_rps, floor_rps, cap_rps, rate_rps,
                   utilization, decision, reason
            FROM throttle_samples
            WHERE received_at >= ?
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

    /** The most windows whose answers are kept at once. */
    private static final int MAX_CACHED = 8;

    /** How long an answer is reused. */
    private static final Duration REUSE = Duration.ofSeconds(3);

    private record Cached(Instant at, History history) {}

    private final Map<Duration, Cached> cache = new ConcurrentHashMap<>();
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

    /**
     * The last {@code window} of every store, at most {@value #MAX_POINTS} points each ({@link ThrottleSeries}). An
     * answer is reused for a few seconds: every open dashboard asks every few seconds, and samples come every ten.
     */
    public History last(Duration window) {
        if (window.compareTo(Duration.ofMinutes(1)) < 0 || window.compareTo(kept) > 0) {
            throw new IllegalArgumentException("the window must be from 1 minute to the history kept ("
                    + kept.toMinutes() + " minutes, erasure.dashboard.throttle-history), got " + window.toMinutes()
                    + " minutes");
        }
        Instant now = clock.instant();
        Cached cached = cache.get(window);
        if (cached != null
                && cached.at().plus(REUSE).isAfter(now)
                && !cached.at().isAfter(now)) {
            return cached.history();
        }
        History history = compute(window, now.truncatedTo(ChronoUnit.MILLIS));
        if (cache.size() >= MAX_CACHED) {
            cache.clear(); // the page asks for four windows; a caller asking for every minute count gets no cache
        }
        cache.put(window, new Cached(now, history));
        return history;
    }

    private History compute(Duration window, Instant to) {
        Instant from = to.minus(window);
        Duration step = window.dividedBy(MAX_POINTS);
        if (step.compareTo(sampleInterval) < 0) {
            step = sampleInterval;
        }
        step = Duration.ofSeconds(Math.max(1, step.toSeconds()));
        Map<String, List<ThrottleSeries.Sample>> byStore = new LinkedHashMap<>();
        Duration hold = Duration.ofMillis((long) (sampleInterval.toMillis() * ThrottleSeries.HOLD_INTERVALS));
        jdbc.query(
                SAMPLES,
                rs -> {
                    byStore.computeIfAbsent(rs.getString("store"), s -> new ArrayList<>())
                            .add(new ThrottleSeries.Sample(
                                    rs.getString("replica"),
                                    rs.getObject("sampled_at", OffsetDateTime.class)
                                            .toInstant(),
                                    rs.getDouble("rate_rps"),
                                    rs.getDouble("limit_rps"),
                                    rs.getDouble("utilization")));
                },
                Timestamp.from(from.minus(hold)),
                Timestamp.from(to));
        Map<String, Current> current = current(to);
        List<StoreHistory> stores = new ArrayList<>();
        for (Map.Entry<String, List<ThrottleSeries.Sample>> e : byStore.entrySet()) {
            List<Point> points = ThrottleSeries.buckets(e.getValue(), from, to, step, sampleInterval);
            if (!points.isEmpty()) {
                stores.add(new StoreHistory(e.getKey(), current.get(e.getKey()), points));
            }
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
                Timestamp.from(now.minus(sampleInterval.multipliedBy(3))));
        return byStore;
    }
}
