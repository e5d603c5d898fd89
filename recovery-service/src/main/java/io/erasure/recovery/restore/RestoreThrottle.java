package io.erasure.recovery.restore;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import java.time.Duration;

/**
 * Bounds restored rows per second per store connection, shared by every recovery of this replica, so
 * a large recovery does not hurt live traffic (restores are writes, like deletes).
 */
public class RestoreThrottle {

    private final RateLimiterRegistry limiters;
    private final int rowsPerSecond;

    public RestoreThrottle(int rowsPerSecond) {
        if (rowsPerSecond < 1) {
            throw new IllegalArgumentException("erasure.recovery.rows-per-second must be >= 1, got " + rowsPerSecond);
        }
        this.rowsPerSecond = rowsPerSecond;
        this.limiters = RateLimiterRegistry.of(RateLimiterConfig.custom()
                .limitForPeriod(rowsPerSecond)
                .limitRefreshPeriod(Duration.ofSeconds(1))
                .timeoutDuration(Duration.ofMinutes(10))
                .build());
    }

    /** The largest batch one permit request may cover. */
    public int maxBatch() {
        return rowsPerSecond;
    }

    /** Blocks until {@code rows} restores against {@code connectionRef} are allowed. */
    public void acquire(String connectionRef, int rows) {
        RateLimiter limiter = limiters.rateLimiter(connectionRef);
        while (!limiter.acquirePermission(rows)) {
            // timed out waiting (a very busy connection): keep waiting, the recovery is not abandoned
        }
    }
}
