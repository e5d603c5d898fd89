package io.erasure.infra.cassandra.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DigitsTest {

    @Test
    void digitsAreSpelledExactlyAsLongToStringSpellsThem() {
        SplittableRandom random = new SplittableRandom(11);
        long[] edges = {0, 1, -1, 9, 10, -10, 99, 100, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
        byte[] out = new byte[Digits.MAX_LENGTH];
        for (int i = 0; i < edges.length + 10_000; i++) {
            long value = i < edges.length ? edges[i] : random.nextLong() >> random.nextInt(64);
            int length = Digits.write(value, out);
            assertEquals(
                    Long.toString(value),
                    new String(out, out.length - length, length, StandardCharsets.US_ASCII),
                    "digits of " + value);
        }
    }
}
