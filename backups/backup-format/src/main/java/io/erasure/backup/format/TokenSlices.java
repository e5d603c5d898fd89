package io.erasure.backup.format;

import java.math.BigInteger;

/**
 * The Murmur3 token ring cut into {@code count} equal slices {@code (after, upTo]}: how the exporter cuts a Cassandra
 * table into parts and the audit cuts a Cassandra backup into units. The first slice starts at the ring's minimum,
 * which no key hashes to; the last ends at its maximum.
 */
public record TokenSlices(int count) {

    private static final BigInteger RING = BigInteger.ONE.shiftLeft(64);

    public TokenSlices {
        if (count < 1) {
            throw new IllegalArgumentException("the ring is cut into at least one slice, got " + count);
        }
    }

    /** The exclusive lower token of slice {@code i}. */
    public long after(int i) {
        return i == 0 ? Long.MIN_VALUE : upTo(i - 1);
    }

    /** The inclusive upper token of slice {@code i}. */
    public long upTo(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("slice " + i + " of " + count);
        }
        if (i == count - 1) {
            return Long.MAX_VALUE;
        }
        return BigInteger.valueOf(Long.MIN_VALUE)
                .add(RING.multiply(BigInteger.valueOf(i + 1)).divide(BigInteger.valueOf(count)))
                .longValueExact();
    }
}
