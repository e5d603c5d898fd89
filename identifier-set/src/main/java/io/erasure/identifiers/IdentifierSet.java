package io.erasure.identifiers;

/**
 * The deletable identifiers of one audit, held compactly in memory: a primitive open-addressing
 * table, never boxed objects. Built once per run by one thread, then only read, by any number of
 * threads (safe publication through the loader's cache).
 *
 * <p>Identifiers are passed as two longs: numeric identifiers as {@code (value, 0)}, string
 * identifiers as their 128-bit {@link IdentifierHash}.
 */
public sealed interface IdentifierSet permits LongIdentifierSet, HashedIdentifierSet {

    IdentifierKind kind();

    boolean contains(long a, long b);

    int size();

    /** Bytes held by the table's arrays (the set's whole footprint but for a few fields). */
    long tableBytes();

    default double bytesPerId() {
        return size() == 0 ? 0 : (double) tableBytes() / size();
    }

    /**
     * Looks up {@code n} identifiers back to back and marks hits in {@code hit}; returns the number
     * of hits. Called on a chunk of rows whose identifiers were all parsed first, in passes: filter
     * words, then one branch-free load per identifier (the cache misses, which the CPU now overlaps
     * instead of stalling on each), then the filter's test, which keeps the few that pass; their
     * table slots are loaded together the same way, then resolved, which rarely needs a further probe
     * (PERFORMANCE.md: chunked lookups made the loop 1.5-2.5x faster).
     *
     * @param slots   scratch of at least {@code n} ints owned by the calling thread
     * @param scratch scratch of at least {@code n} longs owned by the calling thread
     */
    int containsAll(long[] a, long[] b, boolean[] present, boolean[] hit, int n, int[] slots, long[] scratch);

    /** Hands every identifier to {@code each}, in no particular order (for writing the set to a file). */
    void forEach(Each each);

    /** Receives one identifier as the set holds it. */
    @FunctionalInterface
    interface Each {
        void accept(long a, long b);
    }
}
