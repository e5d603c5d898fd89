package io.erasure.identifiers;

/**
 * A register-blocked Bloom filter in front of an identifier table: one 64-bit word per identifier
 * with four bits set in it, 8 bits per identifier (1 byte). It is small enough to stay mostly in
 * the CPU cache, so the ~99 % of rows whose identifier is not deletable are answered without
 * touching the big table (whose every access is a cache and TLB miss); about 3 % of them pass
 * anyway and are settled by the table. Never a false negative.
 */
final class BlockedBloomFilter {

    static final int BITS_PER_ID = 8;

    private final long[] words;
    private final int count;

    BlockedBloomFilter(int expected) {
        this.count = (int) Math.max(1, ((long) expected * BITS_PER_ID + 63) / 64);
        this.words = new long[count];
    }

    /** The word of a well-mixed 64-bit hash (its high half, scaled to the filter). */
    int word(long hash) {
        return (int) (((hash >>> 32) * count) >>> 32);
    }

    // four bit positions from the low 24 bits (shifts use the low 6 bits of their distance)
    static long mask(long hash) {
        return (1L << hash) | (1L << (hash >>> 6)) | (1L << (hash >>> 12)) | (1L << (hash >>> 18));
    }

    void add(long hash) {
        words[word(hash)] |= mask(hash);
    }

    long wordAt(int index) {
        return words[index];
    }

    long bytes() {
        return 8L * count;
    }
}
