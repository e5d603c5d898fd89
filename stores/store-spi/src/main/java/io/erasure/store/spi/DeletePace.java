package io.erasure.store.spi;

/**
 * What the platform's throttle and gate say while a delete runs, for an adapter whose store paces a delete itself
 * (OpenSearch's {@code _delete_by_query} with {@code requests_per_second}). Both are read again while it runs: the
 * throttle cuts as the store's load rises, and a kill switch or a cancelled run halts. Thread-safe.
 */
public interface DeletePace {

    /** No limit and never halted: a delete run outside deletion (tests, tools). */
    DeletePace UNPACED = new DeletePace() {
        @Override
        public int rowsPerSecond() {
            return Integer.MAX_VALUE;
        }

        @Override
        public boolean halted() {
            return false;
        }
    };

    /** The store's current limit, at least 1; {@link Integer#MAX_VALUE} when unlimited. */
    int rowsPerSecond();

    /**
     * True when the delete must stop as soon as it safely can: the adapter then stops (cancelling what the store
     * runs for it), returns what was done, and the caller hands the batch back to be planned again.
     */
    boolean halted();
}
