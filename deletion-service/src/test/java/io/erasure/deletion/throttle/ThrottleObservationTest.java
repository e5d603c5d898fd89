package io.erasure.deletion.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.deletion.DeletionProperties;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.LoadSignal.ReadLatency;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Control steps against a fake store: each observation counts once, and the store's own signals steer the rate. */
class ThrottleObservationTest {

    private static final LoadSignal IDLE = LoadSignal.of(Map.of("cpu", 0.01), Instant.EPOCH);

    /** Headroom 0.3, cap 5,000 rows/s (starts at 500), +100 per step, ×0.7 on overload, floor 10. */
    private final AdaptiveThrottle throttle = new AdaptiveThrottle(
            ThrottleProperties.of(5_000, 10, 100, 0.7), new ShardOwnership(), new SimpleMeterRegistry());

    private int window;

    @Test
    void oneSlowBatchCutsTheLimitAtMostOnceHoweverManyStepsFollowIt() {
        throttle.acquire("store", 100, () -> false, Duration.ofMillis(20));
        throttle.observe("store", Duration.ofSeconds(3)); // a GC pause or a loaded host, once

        int cuts = 0;
        int limit = throttle.limit("store");
        for (int step = 0; step < 30; step++) {
            throttle.adjust(store -> IDLE);
            int next = throttle.limit("store");
            cuts += next < limit ? 1 : 0;
            limit = next;
        }

        assertThat(cuts).as("cuts after one slow batch and no other").isLessThanOrEqualTo(1);
        assertThat(limit).as("an idle store lets the limit grow again").isGreaterThan(500);
    }

    @Test
    void withNoLiveLoadTheLimitClimbsToTheCapAndStaysThere() {
        for (int step = 0; step < 80; step++) {
            deleteAtTheLimit();
            throttle.observe("store", Duration.ofMillis(40));
            throttle.adjust(store -> IDLE.withReadLatency(new ReadLatency(0.8, 1_000, next())));
        }
        assertThat(throttle.limit("store")).isEqualTo(5_000);
    }

    @Test
    void liveReadsSlowerThanTheirBaselineBeyondTheHeadroomCutTheRateOncePerWindow() {
        learnBaseline(1.0);
        deleteAtTheLimit();
        throttle.adjust(store -> IDLE.withReadLatency(new ReadLatency(1.2, 1_000, next())));
        assertThat(throttle.limit("store"))
                .as("1.2× the baseline is within 1.3×: slow start doubles")
                .isEqualTo(1_600);

        deleteAtTheLimit();
        LoadSignal slowed = IDLE.withReadLatency(new ReadLatency(1.5, 1_000, next()));
        throttle.adjust(store -> slowed);
        assertThat(throttle.limit("store")).as("1.5× the baseline").isEqualTo(1_120);
        for (int step = 0; step < 5; step++) {
            deleteAtTheLimit();
            throttle.adjust(store -> slowed); // the same window again: the store has not measured anew
        }
        assertThat(throttle.limit("store"))
                .as("one window, one cut; then steps, slow start is over")
                .isEqualTo(1_620);
    }

    @Test
    void deletionsOwnEffectOnTheReadsNeverBecomesTheirBaseline() {
        learnBaseline(1.0);
        int cuts = 0;
        for (int step = 0; step < 60; step++) {
            deleteAtTheLimit();
            int before = throttle.limit("store");
            // every window just inside the allowance: the baseline must not creep up towards it
            throttle.adjust(store -> IDLE.withReadLatency(new ReadLatency(1.25, 1_000, next())));
            cuts += throttle.limit("store") < before ? 1 : 0;
        }
        deleteAtTheLimit();
        throttle.adjust(store -> IDLE.withReadLatency(new ReadLatency(1.35, 1_000, next())));
        assertThat(cuts).isZero();
        assertThat(throttle.limit("store"))
                .as("1.35× the quiet baseline is still over 1.3×")
                .isLessThan(5_000);
    }

    @Test
    void aWindowOfFewReadsIsNotActedOn() {
        learnBaseline(1.0);
        deleteAtTheLimit();
        throttle.adjust(store -> IDLE.withReadLatency(new ReadLatency(50, 3, next())));
        assertThat(throttle.limit("store")).isEqualTo(1_600);
    }

    @Test
    void aWindowOfDeletionsOwnReadsAloneIsNoLiveTrafficToProtect() {
        learnBaseline(1.0);
        deleteAtTheLimit();
        throttle.adjust(store -> IDLE.withReadLatency(new ReadLatency(5.0, 3_000, next(), 2_990)));
        assertThat(throttle.limit("store")).isEqualTo(1_600);
    }

    @Test
    void onAnIdleStoreALimitThatDeletionFillsDoublesToTheCapInAFewSteps() {
        List<Integer> limits = new ArrayList<>();
        for (int step = 0; step < 5; step++) {
            deleteAtTheLimit();
            throttle.adjust(store -> IDLE);
            limits.add(throttle.limit("store"));
        }
        assertThat(limits).containsExactly(1_000, 2_000, 4_000, 5_000, 5_000);
    }

    @Test
    void aLimitDeletionDoesNotFillGrowsOnlyByTheStep() {
        throttle.acquire("store", 100, () -> false, Duration.ofMillis(20)); // 100 of the 500 allowed
        throttle.adjust(store -> IDLE);
        assertThat(throttle.limit("store")).isEqualTo(600);
        throttle.adjust(store -> IDLE);
        assertThat(throttle.limit("store")).as("nothing sent at all").isEqualTo(700);
    }

    @Test
    void afterTheFirstOverloadSlowStartIsOverForThatStoreOnly() {
        deleteAtTheLimit();
        throttle.adjust(store -> IDLE);
        deleteAtTheLimit();
        throttle.adjust(store -> LoadSignal.of(Map.of("cpu", 0.9), Instant.EPOCH));
        assertThat(throttle.limit("store")).as("1,000 sent, cut by 0.7").isEqualTo(700);
        deleteAtTheLimit();
        throttle.adjust(store -> IDLE);
        assertThat(throttle.limit("store")).as("additive from the cut").isEqualTo(800);

        throttle.acquire("other", 500, () -> false, Duration.ofMillis(20));
        throttle.adjust(store -> IDLE);
        assertThat(throttle.limit("other"))
                .as("another store still starts slowly, doubling")
                .isEqualTo(1_000);
    }

    @Test
    void anOperatorsCapForOneStoreReplacesTheFleetsForItAlone() {
        AdaptiveThrottle capped = new AdaptiveThrottle(
                new DeletionProperties(
                        0.3,
                        5_000,
                        10,
                        100,
                        0.7,
                        Duration.ofSeconds(1),
                        Duration.ofMillis(500),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        Map.of("big", 20_000)),
                new ShardOwnership(),
                new SimpleMeterRegistry());
        assertThat(capped.limit("big")).as("a tenth of its own cap to start").isEqualTo(2_000);
        for (int step = 0; step < 10; step++) {
            for (String store : List.of("big", "store")) {
                AtomicInteger checks = new AtomicInteger();
                capped.acquire(store, capped.limit(store), () -> checks.getAndIncrement() > 0, Duration.ofMillis(20));
            }
            capped.adjust(store -> IDLE);
        }
        assertThat(capped.limit("big")).isEqualTo(20_000);
        assertThat(capped.limit("store")).isEqualTo(5_000);
    }

    @Test
    void overTheUtilizationTargetTheCutAppliesToWhatDeletionActuallySent() {
        throttle.limit("store");
        for (int step = 0; step < 50; step++) {
            throttle.adjust(store -> IDLE); // idle: the limit grows to the cap unused
        }
        assertThat(throttle.limit("store")).isEqualTo(5_000);

        AtomicInteger checks = new AtomicInteger();
        throttle.acquire("store", 200, () -> checks.getAndIncrement() > 0, Duration.ofMillis(20));
        throttle.adjust(store -> LoadSignal.of(Map.of("compaction_backlog", 0.9), Instant.EPOCH));
        assertThat(throttle.limit("store"))
                .as("200 rows sent in the step, cut by 0.7")
                .isEqualTo(140);
    }

    @Test
    void aStoreWhoseLoadCannotBeReadKeepsItsLimit() {
        throttle.acquire("store", 1, () -> false, Duration.ofMillis(20));
        throttle.adjust(store -> {
            throw new IllegalStateException("no node up");
        });
        assertThat(throttle.limit("store")).isEqualTo(500);
    }

    /** Three quiet steps (nothing deleted) whose windows show the live reads at {@code p99Millis}: 500 → 800 rows/s. */
    private void learnBaseline(double p99Millis) {
        throttle.limit("store");
        for (int step = 0; step < 3; step++) {
            throttle.adjust(store -> IDLE.withReadLatency(new ReadLatency(p99Millis, 1_000, next())));
        }
        assertThat(throttle.limit("store")).isEqualTo(800);
    }

    /** Takes a second's permits at the current limit without waiting for them (the fake store needs no pacing). */
    private void deleteAtTheLimit() {
        AtomicInteger checks = new AtomicInteger();
        // the stop switch flips right after the permits are reserved: they count as sent, nothing waits
        throttle.acquire("store", throttle.limit("store"), () -> checks.getAndIncrement() > 0, Duration.ofMillis(20));
    }

    private Instant next() {
        return Instant.EPOCH.plusSeconds(++window);
    }
}
