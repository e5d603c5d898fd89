package io.erasure.deletion.throttle;

import io.erasure.deletion.DeletionProperties;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.StoreException;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * One deletion rate limit per target store (connection), adjusted by {@link AimdController} from the
 * store's own utilization signal (the same for every replica, since it is the store's) and the latency
 * deletion observes; the static cap is this replica's share of the fleet's cap.
 *
 * <p>Latency counts as overload when a batch is slower than the configured target, or slower than
 * {@value #LATENCY_TOLERANCE}× the fastest batch seen recently: the store's own signal does not see
 * queueing outside the node (a shared host, the network), but its clients do.
 */
public class AdaptiveThrottle {

    static final double LATENCY_TOLERANCE = 1.5;

    private final DeletionProperties properties;
    private final AimdController aimd;
    private final ShardOwnership ownership;
    private final MeterRegistry meters;
    private final Map<String, Store> stores = new ConcurrentHashMap<>();

    public AdaptiveThrottle(DeletionProperties properties, ShardOwnership ownership, MeterRegistry meters) {
        this.properties = properties;
        this.aimd = new AimdController(properties.headroom(), properties.increaseStep(), properties.decreaseFactor(),
                properties.minRowsPerSecond());
        this.ownership = ownership;
        this.meters = meters;
    }

    /** Blocks until {@code rows} deletes may go to the store. */
    public void acquire(String store, int rows) {
        RateLimiter.waitForPermission(state(store).limiter, rows);
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
        long waitNanos = state(store).limiter.reservePermission(rows);
        if (waitNanos < 0) {
            throw new StoreException.Retriable("deleting " + rows + " rows from " + store + " would wait longer than the"
                    + " throttle allows at " + limit(store) + " rows/s; the batch is retried later", null);
        }
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

    /** Records how long a batch of the store took, for the next adjustment. */
    public void observe(String store, Duration batchLatency) {
        Store state = state(store);
        state.lastLatency = batchLatency;
        long nanos = batchLatency.toNanos();
        // the fastest recent batch, slowly forgotten (1 % per batch) so a changed workload is relearnt
        state.bestLatencyNanos = state.bestLatencyNanos == 0 ? nanos
                : Math.min(nanos, state.bestLatencyNanos + state.bestLatencyNanos / 100);
    }

    /** One control step for every store in use: reads its load signal and moves its limit. */
    public void adjust(Function<String, LoadSignal> loadOf) {
        stores.forEach((name, store) -> {
            LoadSignal signal = loadOf.apply(name);
            store.utilization = signal.utilization();
            double latencyRatio = Math.max(
                    (double) store.lastLatency.toNanos() / properties.latencyTarget().toNanos(),
                    store.bestLatencyNanos == 0 ? 0 : store.lastLatency.toNanos() / (LATENCY_TOLERANCE * store.bestLatencyNanos));
            int next = aimd.next(store.limit, cap(), signal.utilization(), latencyRatio);
            if (next != store.limit) {
                store.limit = next;
                store.limiter.changeLimitForPeriod(next);
            }
        });
    }

    public int limit(String store) {
        return state(store).limit;
    }

    private int cap() {
        return Math.max(properties.minRowsPerSecond(), (int) Math.floor(properties.maxRowsPerSecond() * ownership.share()));
    }

    private Store state(String name) {
        return stores.computeIfAbsent(name, key -> {
            int start = Math.max(properties.minRowsPerSecond(), cap() / 10);
            Store store = new Store(start, RateLimiter.of("delete-" + key, RateLimiterConfig.custom()
                    .limitForPeriod(start)
                    .limitRefreshPeriod(Duration.ofSeconds(1))
                    .timeoutDuration(Duration.ofMinutes(10))
                    .build()));
            Gauge.builder("erasure.deletion.rate.limit", store, s -> s.limit).tag("store", key)
                    .description("current deletion rate limit (rows/s)").register(meters);
            Gauge.builder("erasure.deletion.store.utilization", store, s -> s.utilization).tag("store", key)
                    .description("the store's utilization signal").register(meters);
            return store;
        });
    }

    private static final class Store {
        volatile int limit;
        volatile double utilization;
        volatile Duration lastLatency = Duration.ZERO;
        volatile long bestLatencyNanos;
        final RateLimiter limiter;

        Store(int limit, RateLimiter limiter) {
            this.limit = limit;
            this.limiter = limiter;
        }
    }
}
