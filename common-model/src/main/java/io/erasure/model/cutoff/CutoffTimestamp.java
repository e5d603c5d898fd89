package io.erasure.model.cutoff;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The instant, in microseconds since the epoch, that separates data a run may delete from data it
 * must keep. Anything written <em>after</em> the cut-off is newer than the backup the run audited
 * and is never deleted by that run.
 *
 * <ul>
 *   <li>For a batch run it is the backup's export start time minus a clock-skew margin
 *       ({@link #fromBackupStart}).</li>
 *   <li>For forward deletion it is the request's TOMBSTONED time.</li>
 *   <li>Cassandra deletes are issued {@code USING TIMESTAMP} {@link #micros()}, so cells written
 *       later survive by last-write-wins; restores write at {@link #restoreWriteTimeMicros()} so
 *       they never overwrite anything newer than the delete.</li>
 * </ul>
 *
 * <p>This is the one place for micros arithmetic; serialized as a plain JSON number.
 */
public record CutoffTimestamp(long micros) implements Comparable<CutoffTimestamp> {

    /** Default margin subtracted from a backup's start time for clock skew between writers. */
    public static final Duration DEFAULT_CLOCK_SKEW_MARGIN = Duration.ofSeconds(5);

    private static final long MICROS_PER_SECOND = 1_000_000L;

    public CutoffTimestamp {
        if (micros <= 0) {
            throw new IllegalArgumentException(
                    "cutoff micros must be > 0 (microseconds since the epoch), got " + micros);
        }
    }

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static CutoffTimestamp ofMicros(long micros) {
        return new CutoffTimestamp(micros);
    }

    /** The instant truncated to whole microseconds (sub-microsecond writes cannot be told apart). */
    public static CutoffTimestamp fromInstant(Instant instant) {
        return new CutoffTimestamp(toMicros(instant));
    }

    /** A backup's cut-off: its export start minus {@code skewMargin} (>= 0). */
    public static CutoffTimestamp fromBackupStart(Instant exportStartedAt, Duration skewMargin) {
        if (skewMargin == null || skewMargin.isNegative()) {
            throw new IllegalArgumentException("skewMargin must be >= 0, got " + skewMargin);
        }
        return fromInstant(exportStartedAt.minus(skewMargin));
    }

    @JsonValue
    @Override
    public long micros() {
        return micros;
    }

    public Instant toInstant() {
        return fromMicros(micros);
    }

    /** True if a cell written at {@code writeTimeMicros} is newer than the cut-off and must be kept. */
    public boolean isWrittenAfter(long writeTimeMicros) {
        return writeTimeMicros > micros;
    }

    /** Like {@link #isWrittenAfter(long)}; an unknown write time ({@code null}) is not "after". */
    public boolean isWrittenAfter(@Nullable Long writeTimeMicros) {
        return writeTimeMicros != null && isWrittenAfter(writeTimeMicros.longValue());
    }

    /** True if a row last updated at {@code instant} is newer than the cut-off (relational stores). */
    public boolean isWrittenAfter(Instant instant) {
        return isWrittenAfter(toMicros(instant));
    }

    /** The write time for restored cells: one microsecond after the delete, so later writes still win. */
    public long restoreWriteTimeMicros() {
        return Math.addExact(micros, 1);
    }

    public boolean isBefore(CutoffTimestamp other) {
        return micros < other.micros;
    }

    @Override
    public int compareTo(CutoffTimestamp other) {
        return Long.compare(micros, other.micros);
    }

    /** Micros since the epoch, truncated. */
    public static long toMicros(Instant instant) {
        if (instant == null) {
            throw new IllegalArgumentException("instant is required but was null");
        }
        return Math.addExact(
                Math.multiplyExact(instant.getEpochSecond(), MICROS_PER_SECOND), instant.getNano() / 1_000L);
    }

    public static Instant fromMicros(long micros) {
        return Instant.ofEpochSecond(
                Math.floorDiv(micros, MICROS_PER_SECOND), Math.floorMod(micros, MICROS_PER_SECOND) * 1_000L);
    }

    @Override
    public String toString() {
        return micros + "us (" + toInstant() + ")";
    }
}
