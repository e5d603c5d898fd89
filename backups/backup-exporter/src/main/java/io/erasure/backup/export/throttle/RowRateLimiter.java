package io.erasure.backup.export.throttle;

import java.util.function.LongSupplier;

/**
 * Caps an export's read rate in rows per second so a backup scan never competes with live traffic
 * for more than its share: a token bucket holding at most one second of rows. Time and sleeping
 * are injected, so tests control them instead of waiting. Not thread-safe (one per export).
 */
public final class RowRateLimiter {

    /** Sleeps for the given nanoseconds. */
    @FunctionalInterface
    public interface Sleeper {
        void sleepNanos(long nanos) throws InterruptedException;
    }

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final double rowsPerSecond;
    private final LongSupplier nanoTime;
    private final Sleeper sleeper;
    private double available;
    private long last;
    private long acquired;

    public RowRateLimiter(double rowsPerSecond, LongSupplier nanoTime, Sleeper sleeper) {
        if (!(rowsPerSecond > 0)) {
            throw new IllegalArgumentException(
                    "rowsPerSecond must be > 0 (use unlimited() for no limit), got " + rowsPerSecond);
        }
        this.rowsPerSecond = rowsPerSecond;
        this.nanoTime = nanoTime;
        this.sleeper = sleeper;
        this.last = nanoTime.getAsLong();
    }

    public static RowRateLimiter perSecond(double rowsPerSecond) {
        return new RowRateLimiter(
                rowsPerSecond, System::nanoTime, nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
    }

    public static RowRateLimiter unlimited() {
        return new RowRateLimiter(Double.MAX_VALUE, System::nanoTime, nanos -> {});
    }

    /** Blocks until {@code rows} more rows may be read. */
    public void acquire(int rows) throws InterruptedException {
        refill();
        available -= rows;
        acquired += rows;
        if (available < 0) {
            long wait = (long) Math.ceil(-available / rowsPerSecond * NANOS_PER_SECOND);
            sleeper.sleepNanos(wait);
            refill();
        }
    }

    /** Rows acquired so far. */
    public long acquired() {
        return acquired;
    }

    private void refill() {
        long now = nanoTime.getAsLong();
        available = Math.min(rowsPerSecond, available + (now - last) * rowsPerSecond / NANOS_PER_SECOND);
        last = now;
    }
}
