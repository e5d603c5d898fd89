package io.erasure.audit.join;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Byte-array primitives of the hot loop: newline search eight bytes at a time, integer parsing without Strings. */
final class Bytes {

    static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /** Returned by {@link #parseLong} for text that is not a signed 64-bit decimal integer. */
    static final long NOT_A_LONG = Long.MIN_VALUE;

    private Bytes() {}

    /** Index of the first {@code '\n'} in {@code [from, to)}, or -1. */
    static int indexOfNewline(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONG_LE.get(b, i) ^ NEWLINES;
            // a zero byte in x is a newline; the lowest flagged byte is always exact
            long found = (x - ONES) & ~x & HIGHS;
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /**
     * The decimal integer in {@code [from, to)} (optional leading {@code -}), or {@link #NOT_A_LONG}
     * if it is anything else (empty, a fraction, an exponent, out of range). {@code Long.MIN_VALUE}
     * itself is reported as not a long: no identifier source uses it.
     */
    static long parseLong(byte[] b, int from, int to) {
        if (from >= to) {
            return NOT_A_LONG;
        }
        boolean negative = b[from] == '-';
        int i = negative ? from + 1 : from;
        if (i >= to || to - i > 19) {
            return NOT_A_LONG;
        }
        long value = 0;
        for (; i < to; i++) {
            int digit = b[i] - '0';
            if (digit < 0 || digit > 9) {
                return NOT_A_LONG;
            }
            value = value * 10 + digit;
            if (value < 0) {
                return NOT_A_LONG;
            }
        }
        return negative ? -value : value;
    }
}
