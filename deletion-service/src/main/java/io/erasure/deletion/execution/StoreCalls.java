package io.erasure.deletion.execution;

import io.erasure.store.spi.StoreException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Every store call of deletion goes through here: retried on {@link StoreException.Retriable} with
 * exponential backoff and jitter, behind a circuit breaker per store that stops calling a failing store
 * for a while. What still fails is rethrown as retriable (the task is redelivered later).
 */
public class StoreCalls {

    private final RetryRegistry retries;
    private final CircuitBreakerRegistry breakers;
    private final MeterRegistry meters;

    public StoreCalls(int attempts, Duration firstBackoff, Duration maxBackoff, MeterRegistry meters) {
        this.retries = RetryRegistry.of(RetryConfig.custom()
                .maxAttempts(attempts)
                .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(firstBackoff, 2.0, 0.5, maxBackoff))
                .retryExceptions(StoreException.Retriable.class)
                .build());
        this.breakers = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
                .slidingWindowSize(20)
                .minimumNumberOfCalls(10)
                .failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofSeconds(30))
                .recordExceptions(StoreException.Retriable.class)
                .build());
        this.meters = meters;
    }

    public <T> T call(String store, Supplier<T> call) {
        Retry retry = retries.retry(store);
        CircuitBreaker breaker = breaker(store);
        try {
            return Retry.decorateSupplier(retry, CircuitBreaker.decorateSupplier(breaker, call))
                    .get();
        } catch (CallNotPermittedException open) {
            throw new StoreException.Retriable("store '" + store + "' is failing; its circuit breaker is open", open);
        }
    }

    public CircuitBreaker.State state(String store) {
        return breaker(store).getState();
    }

    private CircuitBreaker breaker(String store) {
        return breakers.find(store).orElseGet(() -> {
            CircuitBreaker breaker = breakers.circuitBreaker(store);
            Gauge.builder(
                            "erasure.deletion.breaker.open",
                            breaker,
                            b -> b.getState() == CircuitBreaker.State.CLOSED ? 0 : 1)
                    .tag("store", store)
                    .description("1 while the store's circuit breaker is not closed")
                    .register(meters);
            return breaker;
        });
    }
}
