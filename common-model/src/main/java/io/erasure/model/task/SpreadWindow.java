package io.erasure.model.task;

import io.erasure.model.check.Require;
import java.time.Duration;
import java.time.Instant;

/**
 * The window a run's deletion is spread over (its dataset's {@code spreadOver}), fixed when validation publishes the
 * run's tasks: from {@code start}, when they were published, to {@code end}; {@code plannedKeys} is the number of keys
 * in all of the run's tasks together. The deletion service paces the run's batches so that those keys are done near
 * {@code end}.
 */
public record SpreadWindow(Instant start, Instant end, long plannedKeys) {

    public SpreadWindow {
        Require.nonNull("spread.start", start);
        Require.nonNull("spread.end", end);
        Require.that(end.isAfter(start), "spread.end must be after spread.start, got " + start + " .. " + end);
        Require.positive("spread.plannedKeys", plannedKeys);
    }

    public static SpreadWindow of(Instant start, Duration length, long plannedKeys) {
        Require.nonNull("spread length", length);
        return new SpreadWindow(start, start.plus(length), plannedKeys);
    }

    public Duration length() {
        return Duration.between(start, end);
    }
}
