package io.erasure.identifiers;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * MurmurHash3 x64 128-bit (seed 0) over the UTF-8 bytes of a string identifier, computed straight
 * from the decompressed buffer so the hot loop creates no String. Both halves are kept: with 128
 * bits, two different identifiers collide with probability about n²/2¹²⁹ (for 10⁹ identifiers,
 * below 10⁻²¹), so a hashed set answers as exactly as a set of the strings themselves.
 */
public final class IdentifierHash {

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private IdentifierHash() {}

    /** Hashes {@code [from, to)} into {@code h1[i]} and {@code h2[i]}. */
    public static void hash(byte[] b, int from, int to, long[] h1Out, long[] h2Out, int i) {
        int length = to - from;
        long h1 = 0;
        long h2 = 0;
        int p = from;
        int blocksEnd = from + (length & ~15);
        for (; p < blocksEnd; p += 16) {
            long k1 = (long) LONG_LE.get(b, p);
            long k2 = (long) LONG_LE.get(b, p + 8);
            k1 *= C1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= C2;
            h1 ^= k1;
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            k2 *= C2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= C1;
            h2 ^= k2;
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        long k1 = 0;
        long k2 = 0;
        int tail = length & 15;
        for (int t = tail - 1; t >= 8; t--) {
            k2 = (k2 << 8) | (b[p + t] & 0xffL);
        }
        for (int t = Math.min(tail, 8) - 1; t >= 0; t--) {
            k1 = (k1 << 8) | (b[p + t] & 0xffL);
        }
        if (tail > 8) {
            k2 *= C2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= C1;
            h2 ^= k2;
        }
        if (tail > 0) {
            k1 *= C1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= C2;
            h1 ^= k1;
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        h2 += h1;
        h1Out[i] = h1;
        h2Out[i] = h2;
    }

    /** The hash of a string identifier's UTF-8 bytes into {@code h1[i]} and {@code h2[i]}, as the set stores it. */
    public static void hash(String identifier, long[] h1Out, long[] h2Out, int i) {
        byte[] text = identifier.getBytes(StandardCharsets.UTF_8);
        hash(text, 0, text.length, h1Out, h2Out, i);
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
