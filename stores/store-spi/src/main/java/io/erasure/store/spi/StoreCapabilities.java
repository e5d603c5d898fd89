package io.erasure.store.spi;

import java.util.Set;

/**
 * What an adapter can do, declared by name rather than discovered from exceptions:
 * {@code StoreCapabilities.of(500, RESTORE, CUTOFF_CONDITIONED)}.
 *
 * @param maxBatch  the most keys one call may carry
 * @param supported what the store supports beyond deleting by key; see {@link Capability}
 */
public record StoreCapabilities(int maxBatch, Set<Capability> supported) {

    /** A capability an adapter declares; the delete path and the restore path each read the ones they rely on. */
    public enum Capability {
        /** Can replace the row deletes of a whole partition by one partition delete. */
        PARTITION_DELETE,
        /** Reads per-column write timestamps (µs); otherwise a conditional column stands in. */
        ROW_TIMESTAMPS,
        /** Reads and restores per-column TTLs. */
        CELL_TTL,
        /** Can restore rows from deletion records. */
        RESTORE,
        /**
         * Deletes are conditioned on the batch's cut-off, so a row written after it survives even when the write lands
         * between plan and execute. Stores without write times (a cache, an owner's HTTP endpoint) cannot promise this;
         * they serve only as copies, deleted after their source row was deleted at the cut-off.
         */
        CUTOFF_CONDITIONED,
        /**
         * Can anonymise: plan and execute a batch with clear columns ({@link DeleteBatch#clearColumns()}) that sets
         * them to null under the cut-off rule and keeps the rows.
         */
        CLEAR_COLUMNS
    }

    public StoreCapabilities {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be >= 1, got " + maxBatch);
        }
        supported = Set.copyOf(supported);
    }

    /** A store taking at most {@code maxBatch} keys a call, with the {@code supported} capabilities and no other. */
    public static StoreCapabilities of(int maxBatch, Capability... supported) {
        return new StoreCapabilities(maxBatch, Set.of(supported));
    }

    public boolean supports(Capability capability) {
        return supported.contains(capability);
    }

    public boolean partitionDelete() {
        return supports(Capability.PARTITION_DELETE);
    }

    public boolean rowTimestamps() {
        return supports(Capability.ROW_TIMESTAMPS);
    }

    public boolean cellTtl() {
        return supports(Capability.CELL_TTL);
    }

    public boolean restore() {
        return supports(Capability.RESTORE);
    }

    public boolean cutoffConditioned() {
        return supports(Capability.CUTOFF_CONDITIONED);
    }

    public boolean clearColumns() {
        return supports(Capability.CLEAR_COLUMNS);
    }
}
