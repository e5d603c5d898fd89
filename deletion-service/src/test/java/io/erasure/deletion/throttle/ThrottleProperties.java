package io.erasure.deletion.throttle;

import io.erasure.deletion.DeletionProperties;
import java.time.Duration;

/** Deletion properties for throttle tests: what the throttle reads, a headroom of 0.3, and defaults for the rest. */
final class ThrottleProperties {

    private ThrottleProperties() {}

    static DeletionProperties of(int cap, int floor, int step, double decreaseFactor) {
        return new DeletionProperties(
                0.3,
                cap,
                floor,
                step,
                decreaseFactor,
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
                null);
    }
}
