package io.erasure.deletion.throttle;

import io.erasure.deletion.DeletionProperties;
import io.erasure.model.event.ThrottleSample.StoreThrottle;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.StoreException;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One deletion rate limit per target store (connection), moved by {@link AimdController} once per control step from
 * what that step newly learnt about the store:
 *
 * <ul>
 *   <li>the store's utilization (the same for every replica, since it is the store's): over 1 − headroom is
 *       overload;</li>
 *   <li>the store's live read p99 ({@link LoadSignal#readLatency()}, where the store reports it) against its baseline
 *       before deletion ({@link ReadLatencyBaseline}): over {@link AimdController#readLatencyLimit()} times it is
 *       overload. This is the headroom as live traffic feels it;</li>
 *   <li>deletion's own batch latency, a secondary signal ({@link BatchLatency}): a median of recent batches, heard
 *       only in a step that follows new batches.</li>
 * </ul>
 * Every observation counts once: a read-latency window by its end, a batch in the first step after it. A step that
 * learnt nothing new about latency decides on the utilization alone, so one slow batch cuts the rate at most once.
 * A store whose signal cannot be read keeps its limit until it can. The static cap is this replica's share of the
 * fleet's cap.
 */
public class AdaptiveThrottle {

    private static final Logger LOG = LoggerFactory.getLogger(AdaptiveThrottle.class);

    /**
     * Control steps by store, {@code decision} (cut, raise, hold) and {@code reason}: the signal that overloaded the
     * store (utilization, read_latency, batch_latency), or headroom, at_cap, load_unreadable.
     */
    public static final String DECISIONS = "erasure.deletion.throttle.decisions";

    private final DeletionProperties properties;
    private final AimdController aimd;
    private final ShardOwnership ownership;
    private final MeterRegistry meters;
    private final Map<String, Store> stores = new ConcurrentHashMap<>();

    public AdaptiveThrottle(DeletionProperties properties, ShardOwnership ownership, MeterRegistry meters) {
        this.properties = properties;
        this.aimd = new AimdController(
                properties.headroom(),
                properties.increaseStep(),
                properties.decreaseFactor(),
                properties.minRowsPerSecond());
        this.ownership = ownership;
        this.meters = meters;
    }

    /** Blocks until {@code rows} deletes may go to the store. */
    public void acquire(String store, int rows) {
        Store state = state(store);
        state.sentSinceStep.add(rows);
        RateLimiter.waitForPermission(state.limiter, rows);
    }

    /**
     * Waits until {@code rows} deletes may go to the store, checking {@code stop} every {@code poll} while it
     * waits. Returns false, deleting nothing, as soon as {@code stop} is true (the permits it reserved stay spent:
     * the store's rate is never exceeded by giving up). Throws {@link StoreException.Retriable} when the wait
     * would be longer than the limiter allows.
     */
    public boolean acquire(String store, int rows, BooleanSupplier stop, Duration poll) {
        if (stop.getAsBoolean()) {
            return false;
        }
        Store state = state(store);
        long waitNanos = state.limiter.reservePermission(rows);
        if (waitNanos < 0) {
            throw new StoreException.Retriable(
                    "deleting " + rows + " rows from " + store + " would wait longer than the" + " throttle allows at "
                            + limit(store) + " rows/s; the batch is retried later",
                    null);
        }
        state.sentSinceStep.add(rows); // reserved permits are spent, even when the wait is given up
        long until = System.nanoTime() + waitNanos;
        for (long left = waitNanos; left > 0; left = until - System.nanoTime()) {
            if (stop.getAsBoolean()) {
                return false;
            }
            try {
                Thread.sleep(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), poll.toMillis())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException.Retriable("interrupted while waiting for the throttle of " + store, e);
            }
        }
        return !stop.getAsBoolean();
    }

    /** Records how long a batch of the store took; it counts once, in the next control step. */
    public void observe(String store, Duration batchLatency) {
        state(store).batches.observe(batchLatency);
    }

    /** One control step for every store in use: reads its load signal and moves its limit. */
    public void adjust(Function<String, LoadSignal> loadOf) {
        stores.forEach((name, store) -> {
            long sent = store.sentSinceStep.sumThenReset();
            boolean quiet = (sent == 0 && store.sentLastStep == 0) || store.limit <= properties.minRowsPerSecond();
            store.sentLastStep = sent;
            int sentRate = (int) Math.min(
                    Integer.MAX_VALUE,
                    sent * 1_000 / Math.max(1, properties.controlInterval().toMillis()));
            store.sentRate = sentRate;
            LoadSignal signal;
            try {
                signal = loadOf.apply(name);
            } catch (RuntimeException e) {
                // not knowing the store's load is no reason to delete faster
                decided(name, store, "hold", "load_unreadable");
                store.snapshot = snapshot(name, store, "hold", "load_unreadable");
                LOG.warn(
                        "cannot read the load of store {}; its deletion rate stays at {} rows/s: {}",
                        name,
                        store.limit,
                        e.toString());
                return;
            }
            store.utilization = signal.utilization();
            double readRatio = store.reads.ratio(signal.readLatency(), quiet).orElse(0);
            double batchRatio = store.batches.ratioSinceLastStep(properties.latencyTarget());
            Optional<String> overloadedBy = aimd.overloadedBy(signal.utilization(), readRatio, batchRatio);
            boolean overloaded = overloadedBy.isPresent();
            int cap = cap(name);
            int next = aimd.next(
                    store.limit, sentRate, cap, overloaded, store.slowStartBelow < 0 ? cap : store.slowStartBelow);
            String decision = decision(store.limit, next);
            String reason = overloadedBy.orElse(next >= cap ? "at_cap" : "headroom");
            decided(name, store, decision, reason);
            if (overloaded) {
                // slow start ends at the first overload: from the rate it was cut to, the limit grows by steps
                store.slowStartBelow = next;
                LOG.debug(
                        "store {} overloaded (utilization {}, live read p99 {}x its baseline, batches {}x their"
                                + " target): {} -> {} rows/s",
                        name,
                        signal.utilization(),
                        readRatio,
                        batchRatio,
                        store.limit,
                        next);
            }
            if (next != store.limit) {
                store.limit = next;
                store.limiter.changeLimitForPeriod(next);
            }
            store.snapshot = snapshot(name, store, decision, reason);
        });
    }

    public int limit(String store) {
        return state(store).limit;
    }

    /**
     * The store's utilization for anyone else who must weigh its load (the purge's merges): the last control step's
     * reading when this throttle watches the store (empty when that step could not read it), else {@code read} now.
     * A store's signal may count what happened since its last reading (OpenSearch's rejections and query times): a
     * reading of another's in between would take from the throttle's next step what it must see.
     */
    public OptionalDouble utilization(String store, Supplier<LoadSignal> read) {
        Store watched = stores.get(store);
        if (watched == null) {
            return OptionalDouble.of(read.get().utilization());
        }
        StoreThrottle last = watched.snapshot;
        return last == null || "load_unreadable".equals(last.reason())
                ? OptionalDouble.empty()
                : OptionalDouble.of(watched.utilization);
    }

    /** What a control step did to a store's limit: {@code cut}, {@code raise} or {@code hold}. */
    static String decision(int limit, int next) {
        return next < limit ? "cut" : next > limit ? "raise" : "hold";
    }

    private void decided(String name, Store store, String decision, String reason) {
        meters.counter(DECISIONS, "store", name, "decision", decision, "reason", reason)
                .increment();
    }

    /**
     * Every store this replica has deleted from since it started, by name, as its last control step left it: one
     * snapshot per step, so a decision is never shown beside the limit before it.
     */
    public List<StoreThrottle> summary() {
        return new TreeMap<>(stores)
                .entrySet().stream()
                        .map(e -> {
                            StoreThrottle snapshot = e.getValue().snapshot;
                            return snapshot != null ? snapshot : snapshot(e.getKey(), e.getValue(), "none", "none");
                        })
                        .toList();
    }

    private StoreThrottle snapshot(String name, Store store, String decision, String reason) {
        double utilization = store.utilization;
        return new StoreThrottle(
                name,
                store.limit,
                properties.minRowsPerSecond(),
                cap(name),
                store.sentRate,
                Double.isFinite(utilization) ? Math.max(0, Math.min(100, utilization)) : 0,
                decision,
                reason);
    }

    /** This replica's share of the store's static cap (its own, where the operator set one, else the fleet's). */
    private int cap(String store) {
        int fleetCap = properties.storeMaxRowsPerSecond().getOrDefault(store, properties.maxRowsPerSecond());
        return Math.max(properties.minRowsPerSecond(), (int) Math.floor(fleetCap * ownership.share()));
    }

    private Store state(String name) {
        return stores.computeIfAbsent(name, key -> {
            int start = Math.max(properties.minRowsPerSecond(), cap(key) / 10);
            Store store = new Store(
                    start,
                    RateLimiter.of(
                            "delete-" + key,
                            RateLimiterConfig.custom()
                                    .limitForPeriod(start)
                                    .limitRefreshPeriod(Duration.ofSeconds(1))
                                    .timeoutDuration(Duration.ofMinutes(10))
                                    .build()));
            Gauge.builder("erasure.deletion.rate.limit", store, s -> s.limit)
                    .tag("store", key)
                    .description("current deletion rate limit (rows/s)")
                    .register(meters);
            Gauge.builder("erasure.deletion.rate.floor", properties, p -> p.minRowsPerSecond())
                    .tag("store", key)
                    .description("the lowest the deletion rate limit goes (rows/s): a limit held here is a store that"
                            + " keeps overloading")
                    .register(meters);
            Gauge.builder("erasure.deletion.rate.cap", this, t -> t.cap(key))
                    .tag("store", key)
                    .description("this replica's share of the store's static cap (rows/s)")
                    .register(meters);
            Gauge.builder("erasure.deletion.rate.sent", store, s -> s.sentRate)
                    .tag("store", key)
                    .description("rows/s this replica sent to the store in the last control step")
                    .register(meters);
            Gauge.builder("erasure.deletion.store.utilization", store, s -> s.utilization)
                    .tag("store", key)
                    .description("the store's utilization signal")
                    .register(meters);
            Gauge.builder("erasure.deletion.store.read.p99", store, s -> s.reads.lastP99Millis())
                    .tag("store", key)
                    .baseUnit("milliseconds")
                    .description("the store's live read p99 (last window)")
                    .register(meters);
            Gauge.builder("erasure.deletion.store.read.p99.baseline", store, s -> s.reads.baselineMillis())
                    .tag("store", key)
                    .baseUnit("milliseconds")
                    .description("the live read p99 before deletion, which the throttle" + " keeps it near")
                    .register(meters);
            return store;
        });
    }

    private static final class Store {
        volatile int limit;
        volatile double utilization;
        volatile int sentRate;
        /** What the last control step left, for {@link #summary()}; null before the first step. */
        volatile @Nullable StoreThrottle snapshot;
        /** Below this rate a filled limit doubles each step; -1 until the store is first overloaded (then: the cap). */
        int slowStartBelow = -1;

        final LongAdder sentSinceStep = new LongAdder();
        long sentLastStep;
        final ReadLatencyBaseline reads = new ReadLatencyBaseline();
        final BatchLatency batches = new BatchLatency();
        final RateLimiter limiter;

        Store(int limit, RateLimiter limiter) {
            this.limit = limit;
            this.limiter = limiter;
        }
    }
}
