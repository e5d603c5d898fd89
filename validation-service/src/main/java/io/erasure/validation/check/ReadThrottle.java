package io.erasure.validation.check;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import java.time.Duration;

/**
 * Bounds validation's reads per store connection (read statements per second, as the adapter counts them), so live
 * traffic keeps its headroom.
 */
public class ReadThrottle {

    private final RateLimiterRegistry limiters;

    public ReadThrottle(int readsPerSecond) {
        if (readsPerSecond < 1) {
            throw new IllegalArgumentException(
                    "erasure.validation.reads-per-second must be >= 1, got " + readsPerSecond);
        }
        this.limiters = RateLimiterRegistry.of(RateLimiterConfig.custom()
                .limitForPeriod(readsPerSecond)
                .limitRefreshPeriod(Duration.ofSeconds(1))
                .timeoutDuration(Duration.ofMinutes(5))
                .build());
    }

    public RateLimiter limiter(String connectionRef) {
        return limiters.rateLimiter(connectionRef);
    }
}
