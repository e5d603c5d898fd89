package io.erasure.deletion.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.event.ThrottleSample.StoreThrottle;
import io.erasure.store.spi.LoadSignal;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** What operators see of each control step: the decision, its reason, and the limit against its floor and cap. */
class ThrottleDecisionsTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    /** Floor 10, cap 100, step 10, cut by 0.5; starts at cap / 10 = 10 rows/s. */
    private final AdaptiveThrottle throttle =
            new AdaptiveThrottle(ThrottleProperties.of(100, 10, 10, 0.5), new ShardOwnership(), meters);

    @Test
    void eachStepIsCountedWithWhatDecidedIt() {
        throttle.limit("pg-main"); // the store is in use from its first batch
        throttle.adjust(store -> load(0.1));
        assertThat(throttle.limit("pg-main")).isEqualTo(20);
        assertThat(decisions("raise", "headroom")).isEqualTo(1);

        throttle.adjust(store -> load(0.95));
        assertThat(throttle.limit("pg-main")).isEqualTo(10);
        assertThat(decisions("cut", "utilization")).isEqualTo(1);

        throttle.adjust(store -> load(0.95));
        assertThat(throttle.limit("pg-main")).as("held at the floor").isEqualTo(10);
        assertThat(decisions("hold", "utilization")).isEqualTo(1);
        assertThat(gauge("erasure.deletion.rate.limit")).isEqualTo(gauge("erasure.deletion.rate.floor"));
        assertThat(gauge("erasure.deletion.rate.cap")).isEqualTo(100);

        throttle.adjust(store -> {
            throw new IllegalStateException("JMX down");
        });
        assertThat(decisions("hold", "load_unreadable")).isEqualTo(1);
        assertThat(throttle.limit("pg-main"))
                .as("not knowing the load is no reason to delete faster")
                .isEqualTo(10);
        assertThat(throttle.summary())
                .as("GET /api/throttle and the published sample: the store as the last step left it")
                .containsExactly(new StoreThrottle("pg-main", 10, 10, 100, 0, 0.95, "hold", "load_unreadable"));
    }

    @Test
    void aStoreIsSummarisedFromItsFirstBatchBeforeAnyStep() {
        throttle.limit("pg-main");
        throttle.limit("cassandra-main");

        assertThat(throttle.summary())
                .as("by name; no decision yet")
                .containsExactly(
                        new StoreThrottle("cassandra-main", 10, 10, 100, 0, 0, "none", "none"),
                        new StoreThrottle("pg-main", 10, 10, 100, 0, 0, "none", "none"));
    }

    @Test
    void theFirstSignalOverItsBoundIsTheReasonForACut() {
        AimdController aimd = new AimdController(0.3, 10, 0.5, 10);

        assertThat(aimd.overloadedBy(0.8, 2.0, 2.0)).contains("utilization");
        assertThat(aimd.overloadedBy(0.5, 2.0, 2.0)).contains("read_latency");
        assertThat(aimd.overloadedBy(0.5, 1.0, 2.0)).contains("batch_latency");
        assertThat(aimd.overloadedBy(0.5, 1.0, 1.0)).isEmpty();
        assertThat(AdaptiveThrottle.decision(10, 20)).isEqualTo("raise");
        assertThat(AdaptiveThrottle.decision(20, 10)).isEqualTo("cut");
        assertThat(AdaptiveThrottle.decision(10, 10)).isEqualTo("hold");
    }

    private double decisions(String decision, String reason) {
        Counter counter = meters.find(AdaptiveThrottle.DECISIONS)
                .tags("store", "pg-main", "decision", decision, "reason", reason)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private double gauge(String name) {
        return meters.get(name).tag("store", "pg-main").gauge().value();
    }

    @Test
    void othersWeighingAStoresLoadGetTheThrottlesLastReadingAndTakeNothingFromItsNext() {
        // like OpenSearch's signal: a rejection counts in the first reading after it, then it is spent
        AtomicBoolean rejected = new AtomicBoolean();
        Supplier<LoadSignal> signal = () -> load(rejected.getAndSet(false) ? 1.0 : 0.1);
        throttle.limit("search-main");
        throttle.adjust(store -> signal.get());
        int raised = throttle.limit("search-main");

        rejected.set(true); // the cluster rejects writes
        OptionalDouble seenByThePurge = throttle.utilization("search-main", signal); // between two control steps
        throttle.adjust(store -> signal.get());

        assertThat(seenByThePurge).as("the last step's reading").hasValue(0.1);
        assertThat(throttle.limit("search-main"))
                .as("the rejection reached the throttle, which cut")
                .isLessThan(raised);
        assertThat(throttle.utilization("pg-main", () -> load(0.3)))
                .as("a store the throttle does not watch is read now")
                .hasValue(0.3);
        throttle.adjust(store -> {
            throw new IllegalStateException("node statistics refused");
        });
        assertThat(throttle.utilization("search-main", signal))
                .as("not knowing the load is no headroom")
                .isEmpty();
    }

    private static LoadSignal load(double utilization) {
        return new LoadSignal(utilization, Map.of("cpu", utilization), Instant.now());
    }
}
