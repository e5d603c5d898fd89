package io.erasure.deletion.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AdaptiveThrottleTest {

    /** 10 rows/s: a batch of 500 rows waits about 50 s for its permits. */
    private final AdaptiveThrottle throttle = new AdaptiveThrottle(
            ThrottleProperties.of(10, 10, 100, 0.7), new ShardOwnership(), new SimpleMeterRegistry());

    @Test
    void aKillSwitchEndsTheWaitForPermitsAndNothingMayBeDeleted() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        throttle.acquire("store", 10, stop::get, Duration.ofMillis(20)); // this second's permits are spent
        AtomicInteger looks = new AtomicInteger();

        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> throttle.acquire(
                "store",
                500,
                () -> {
                    looks.incrementAndGet();
                    return stop.get();
                },
                Duration.ofMillis(20)));
        // the switch is looked at once before the permits are reserved, then at every poll of the wait for them
        await().atMost(Duration.ofSeconds(10)).until(() -> looks.get() >= 2);
        assertThat(waiting).as("still waiting for permits").isNotDone();
        stop.set(true);

        assertThat(waiting.get(5, TimeUnit.SECONDS)).as("may delete").isFalse();
    }

    @Test
    void aSwitchAlreadyOnDoesNotWaitAtAll() {
        assertThat(throttle.acquire("store", 500, () -> true, Duration.ofMillis(20)))
                .isFalse();
    }

    @Test
    void withoutASwitchThePermitsAreGranted() {
        assertThat(throttle.acquire("store", 5, () -> false, Duration.ofMillis(20)))
                .isTrue();
    }
}
