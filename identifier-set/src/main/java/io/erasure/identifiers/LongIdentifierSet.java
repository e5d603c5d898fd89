package io.erasure.identifiers;

/**
 * Numeric identifiers in one {@code long[]} with linear probing: 8 bytes per slot, so
 * {@code 8 / loadFactor} bytes per identifier (13.3 at the default 0.6), plus a 1-byte-per-id
 * {@link BlockedBloomFilter} that answers most misses from the cache: 14.3 bytes per identifier.
 * The table is sized exactly for the identifiers it will hold, not to a power of two, so the load
 * factor is the one asked for.
 */
public final class LongIdentifierSet implements IdentifierSet {

    public static final double DEFAULT_LOAD_FACTOR = 0.6;

    private static final long EMPTY = 0;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final long[] table;
    private final int capacity;
    private final BlockedBloomFilter filter;
    private boolean containsZero;
    private int size;

    public LongIdentifierSet(int expected, double loadFactor) {
        if (loadFactor <= 0.1 || loadFactor >= 0.95) {
            throw new IllegalArgumentException("loadFactor must be between 0.1 and 0.95, got " + loadFactor);
        }
        long slots = Math.max(16, (long) Math.ceil(expected / loadFactor));
        if (slots > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    expected + " identifiers do not fit one table; split the identifier source");
        }
        this.capacity = (int) slots;
        this.table = new long[capacity];
        this.filter = new BlockedBloomFilter(expected);
    }

    public static LongIdentifierSet of(long[] ids, int count) {
        LongIdentifierSet set = new LongIdentifierSet(count, DEFAULT_LOAD_FACTOR);
        for (int i = 0; i < count; i++) {
            set.add(ids[i]);
        }
        return set;
    }

    @Override
    public IdentifierKind kind() {
        return IdentifierKind.NUMERIC;
    }

    /** Adds {@code id}; returns false if it was there. Only while building. */
    public boolean add(long id) {
        if (id == EMPTY) {
            boolean added = !containsZero;
            containsZero = true;
            size += added ? 1 : 0;
            return added;
        }
        if (size >= capacity - 1) {
            throw new IllegalStateException("set is full: it was sized for fewer identifiers");
        }
        int i = slot(id);
        for (long v = table[i]; v != EMPTY; v = table[i]) {
            if (v == id) {
                return false;
            }
            i = ++i == capacity ? 0 : i;
        }
        table[i] = id;
        filter.add(mix(id));
        size++;
        return true;
    }

    @Override
    public boolean contains(long id, long ignored) {
        return contains(id);
    }

    public boolean contains(long id) {
        if (id == EMPTY) {
            return containsZero;
        }
        int i = slot(id);
        for (long v = table[i]; v != EMPTY; v = table[i]) {
            if (v == id) {
                return true;
            }
            i = ++i == capacity ? 0 : i;
        }
        return false;
    }

    @Override
    public int containsAll(
            long[] ids, long[] ignored, boolean[] present, boolean[] hit, int n, int[] slots, long[] scratch) {
        for (int i = 0; i < n; i++) {
            slots[i] = filter.word(mix(ids[i]));
        }
        // one branch-free load per identifier: the CPU overlaps them
        for (int i = 0; i < n; i++) {
            scratch[i] = filter.wordAt(slots[i]);
        }
        // the rows that pass the filter (about 3 %), kept in slots[] without a branch
        int passed = 0;
        for (int i = 0; i < n; i++) {
            long id = ids[i];
            long mask = BlockedBloomFilter.mask(mix(id));
            hit[i] = false;
            slots[passed] = i;
            passed += present[i] && (id == EMPTY ? containsZero : (scratch[i] & mask) == mask) ? 1 : 0;
        }
        // their first table slots, loaded together as the filter's words were: most settle there
        for (int j = 0; j < passed; j++) {
            scratch[j] = table[slot(ids[slots[j]])];
        }
        int hits = 0;
        for (int j = 0; j < passed; j++) {
            int i = slots[j];
            long id = ids[i];
            long first = scratch[j];
            boolean h = id == EMPTY || first == id || (first != EMPTY && contains(id));
            hit[i] = h;
            hits += h ? 1 : 0;
        }
        return hits;
    }

    @Override
    public void forEach(Each each) {
        if (containsZero) {
            each.accept(EMPTY, 0);
        }
        for (long id : table) {
            if (id != EMPTY) {
                each.accept(id, 0);
            }
        }
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long tableBytes() {
        return 8L * capacity + filter.bytes();
    }

    // murmur3's finalizer: the filter needs all 64 bits mixed
    private static long mix(long id) {
        long k = id;
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    // Fibonacci hashing, then the high 32 bits scaled to the table (no power-of-two capacity needed)
    private int slot(long id) {
        return (int) ((((id * GOLDEN) >>> 32) * capacity) >>> 32);
    }
}
