package io.erasure.store.spi;

import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * What the platform's throttle and gate say while a delete runs, for an adapter whose store paces a delete itself
 * (OpenSearch's {@code _delete_by_query} with {@code requests_per_second}). Both are read again while it runs: the
 * throttle cuts as the store's load rises, and a kill switch or a cancelled run halts. Thread-safe.
 */
public interface DeletePace {

    /** No limit and never halted: a delete run outside deletion (tests, tools). */
    DeletePace UNPACED = of(() -> Integer.MAX_VALUE, () -> false);

    /** A pace that reads {@code rowsPerSecond} and {@code halted} each time it is asked. */
    static DeletePace of(IntSupplier rowsPerSecond, BooleanSupplier halted) {
        return new DeletePace() {
            @Override
            public int rowsPerSecond() {
                return rowsPerSecond.getAsInt();
            }

            @Override
            public boolean halted() {
                return halted.getAsBoolean();
            }
        };
    }

    /** The store's current limit, at least 1; {@link Integer#MAX_VALUE} when unlimited. */
    int rowsPerSecond();

    /**
     * True when the delete must stop as soon as it safely can: the adapter then stops (cancelling what the store
     * runs for it) and, if it left planned rows undeleted, throws {@link Halted}; the caller hands the batch back to be
     * planned again, which finds what went and what stayed.
     */
    boolean halted();

    /** A delete stopped part-way because {@link #halted()} said so: not a failure, and not to be retried as one. */
    final class Halted extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public Halted(String message) {
            super(message, null, false, false);
        }
    }
}
