package io.erasure.infra.cassandra.scan;

/** An integer's decimal digits as {@link Long#toString(long)} spells them, written without creating a String. */
final class Digits {

    /** {@code -9223372036854775808}: 20 characters. */
    static final int MAX_LENGTH = 20;

    private Digits() {}

    /**
     * Writes {@code value}'s digits (and its minus sign) at the end of {@code out}, right-aligned; returns how many
     * bytes they take: they are {@code out[out.length - length, out.length)}.
     */
    static int write(long value, byte[] out) {
        int at = out.length;
        // negative throughout, so Long.MIN_VALUE needs no special case
        long rest = value < 0 ? value : -value;
        do {
            out[--at] = (byte) ('0' - (rest % 10));
            rest /= 10;
        } while (rest != 0);
        if (value < 0) {
            out[--at] = '-';
        }
        return out.length - at;
    }
}
