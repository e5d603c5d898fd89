package io.erasure.identifiers;

import java.util.Collection;

/**
 * String identifiers as 128-bit hashes ({@link IdentifierHash}) in two parallel {@code long[]}
 * with linear probing on the first half: 16 bytes per slot, so {@code 16 / loadFactor} bytes per
 * identifier (21.3 at the default 0.75), plus a 1-byte-per-id {@link BlockedBloomFilter} keyed by
 * the second half that answers most misses from the cache: 22.3 bytes per identifier in all. The
 * table's second array is read only when the first half matches.
 *
 * <p>Why not 64-bit hashes (about 14 B/id): a 64-bit collision (probability about
 * rows x identifiers / 2^64 per audit) would make a row of a live customer a candidate. Validation
 * re-checks every candidate against the live identifier source, so it would be dropped there and
 * never deleted, but with 128 bits the audit's own answer is exact, at a memory cost still within
 * the 24 B/id budget.
 */
public final class HashedIdentifierSet implements IdentifierSet {

    public static final double DEFAULT_LOAD_FACTOR = 0.75;

    private final long[] first;
    private final long[] second;
    private final int capacity;
    private final BlockedBloomFilter filter;
    private int size;

    public HashedIdentifierSet(int expected, double loadFactor) {
        if (loadFactor <= 0.1 || loadFactor >= 0.95) {
            throw new IllegalArgumentException("loadFactor must be between 0.1 and 0.95, got " + loadFactor);
        }
        long slots = Math.max(16, (long) Math.ceil(expected / loadFactor));
        if (slots > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    expected + " identifiers do not fit one table; split the identifier source");
        }
        this.capacity = (int) slots;
        this.first = new long[capacity];
        this.second = new long[capacity];
        this.filter = new BlockedBloomFilter(expected);
    }

    /** A set of {@code ids}, each hashed as {@link IdentifierHash} hashes a string identifier. */
    public static HashedIdentifierSet of(Collection<String> ids) {
        HashedIdentifierSet set = new HashedIdentifierSet(ids.size(), DEFAULT_LOAD_FACTOR);
        long[] a = new long[1];
        long[] b = new long[1];
        for (String id : ids) {
            IdentifierHash.hash(id, a, b, 0);
            set.add(a[0], b[0]);
        }
        return set;
    }

    @Override
    public IdentifierKind kind() {
        return IdentifierKind.STRING;
    }

    /** Adds the identifier hashed to {@code (h1, h2)}; returns false if it was there. Only while building. */
    public boolean add(long h1, long h2) {
        h1 = nonEmpty(h1);
        if (size >= capacity - 1) {
            throw new IllegalStateException("set is full: it was sized for fewer identifiers");
        }
        int i = slot(h1);
        for (long v = first[i]; v != 0; v = first[i]) {
            if (v == h1 && second[i] == h2) {
                return false;
            }
            i = ++i == capacity ? 0 : i;
        }
        first[i] = h1;
        second[i] = h2;
        filter.add(h2);
        size++;
        return true;
    }

    @Override
    public boolean contains(long h1, long h2) {
        h1 = nonEmpty(h1);
        int i = slot(h1);
        for (long v = first[i]; v != 0; v = first[i]) {
            if (v == h1 && second[i] == h2) {
                return true;
            }
            i = ++i == capacity ? 0 : i;
        }
        return false;
    }

    @Override
    public int containsAll(long[] a, long[] b, boolean[] present, boolean[] hit, int n, int[] slots, long[] scratch) {
        for (int i = 0; i < n; i++) {
            slots[i] = filter.word(b[i]);
        }
        // one branch-free load per identifier: the CPU overlaps them
        for (int i = 0; i < n; i++) {
            scratch[i] = filter.wordAt(slots[i]);
        }
        // the rows that pass the filter (about 3 %), kept in slots[] without a branch
        int passed = 0;
        for (int i = 0; i < n; i++) {
            long mask = BlockedBloomFilter.mask(b[i]);
            hit[i] = false;
            slots[passed] = i;
            passed += present[i] && (scratch[i] & mask) == mask ? 1 : 0;
        }
        // their first table slots, loaded together as the filter's words were: most settle there
        for (int j = 0; j < passed; j++) {
            scratch[j] = first[slot(nonEmpty(a[slots[j]]))];
        }
        int hits = 0;
        for (int j = 0; j < passed; j++) {
            int i = slots[j];
            long settled = scratch[j];
            boolean h = settled != 0 && contains(a[i], b[i]);
            hit[i] = h;
            hits += h ? 1 : 0;
        }
        return hits;
    }

    @Override
    public void forEach(Each each) {
        for (int i = 0; i < capacity; i++) {
            if (first[i] != 0) {
                each.accept(first[i], second[i]);
            }
        }
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long tableBytes() {
        return 16L * capacity + filter.bytes();
    }

    // 0 marks an empty slot; the one hash with first half 0 shares slot values with first half 1
    private static long nonEmpty(long h1) {
        return h1 == 0 ? 1 : h1;
    }

    private int slot(long h1) {
        return (int) (((h1 >>> 32) * capacity) >>> 32);
    }
}
