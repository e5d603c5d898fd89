package io.erasure.identifiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IdentifierSetTest {

    @Test
    void murmur3MatchesTheReferenceVectors() {
        assertHash("hell", 0x629942693e10f867L, 0x92db0b82baeb5347L);
        assertHash("The quick brown fox jumps over the lazy dog", 0xe34bbc7bbc071b6cL, 0x7a433ca9c49a9347L);
        assertHash("The quick brown fox jumps over the lazy cog", 0x658ca970ff85269aL, 0x43fee3eaa68e5c3eL);
    }

    @Test
    void anIdentifierInTheMiddleOfABufferHashesAsOneAtItsEnd() {
        // text is hashed where it lies in a Parquet page: the bytes around it must not change its hash
        SplittableRandom random = new SplittableRandom(7);
        for (int length = 0; length <= 48; length++) {
            byte[] alone = new byte[length];
            random.nextBytes(alone);
            byte[] amid = new byte[3 + length + 20];
            random.nextBytes(amid);
            System.arraycopy(alone, 0, amid, 3, length);
            long[] a = new long[2];
            long[] b = new long[2];
            IdentifierHash.hash(alone, 0, length, a, b, 0);
            IdentifierHash.hash(amid, 3, 3 + length, a, b, 1);
            assertThat(new long[] {a[1], b[1]}).as("length " + length).containsExactly(a[0], b[0]);
        }
    }

    private static void assertHash(String text, long h1, long h2) {
        byte[] bytes = ("xx" + text).getBytes(StandardCharsets.UTF_8);
        long[] a = new long[1];
        long[] b = new long[1];
        IdentifierHash.hash(bytes, 2, bytes.length, a, b, 0);
        assertThat(new long[] {a[0], b[0]}).as(text).containsExactly(h1, h2);
    }

    @Test
    void longSetAnswersExactlyLikeAHashSetIncludingZeroAndNegatives() {
        SplittableRandom random = new SplittableRandom(1);
        Set<Long> reference = new HashSet<>();
        LongIdentifierSet set = new LongIdentifierSet(20_000, LongIdentifierSet.DEFAULT_LOAD_FACTOR);
        for (int i = 0; i < 20_000; i++) {
            long id = i % 3 == 0 ? random.nextLong(-1000, 1000) : random.nextLong();
            assertThat(set.add(id)).isEqualTo(reference.add(id));
        }
        assertThat(set.size()).isEqualTo(reference.size());
        int n = 2_000;
        long[] probes = new long[n];
        boolean[] present = new boolean[n];
        for (int i = 0; i < n; i++) {
            probes[i] = i % 2 == 0 ? random.nextLong(-1000, 1000) : random.nextLong();
            present[i] = true;
            assertThat(set.contains(probes[i])).isEqualTo(reference.contains(probes[i]));
        }
        boolean[] hit = new boolean[n];
        int hits = set.containsAll(probes, new long[n], present, hit, n, new int[n], new long[n]);
        int expected = 0;
        for (int i = 0; i < n; i++) {
            assertThat(hit[i]).isEqualTo(reference.contains(probes[i]));
            expected += hit[i] ? 1 : 0;
        }
        assertThat(hits).isEqualTo(expected).isGreaterThan(100);
        assertThat(set.contains(0)).isEqualTo(reference.contains(0L));
    }

    @Test
    void absentIdentifiersAreNeverHitsEvenIfTheirSlotHoldsAMatch() {
        LongIdentifierSet set = LongIdentifierSet.of(new long[] {42}, 1);
        boolean[] hit = new boolean[2];
        assertThat(set.containsAll(
                        new long[] {42, 42}, new long[2], new boolean[] {true, false}, hit, 2, new int[2], new long[2]))
                .isEqualTo(1);
        assertThat(hit).containsExactly(true, false);
    }

    @Test
    void hashedSetAnswersExactlyForStringsAndSeesBothHalves() {
        SplittableRandom random = new SplittableRandom(2);
        Set<String> reference = new HashSet<>();
        HashedIdentifierSet set = new HashedIdentifierSet(10_000, HashedIdentifierSet.DEFAULT_LOAD_FACTOR);
        long[] a = new long[1];
        long[] b = new long[1];
        for (int i = 0; i < 10_000; i++) {
            String id = "cus_" + random.nextInt(20_000);
            IdentifierHash.hash(id, a, b, 0);
            assertThat(set.add(a[0], b[0])).isEqualTo(reference.add(id));
        }
        for (int i = 0; i < 20_000; i++) {
            String id = "cus_" + i;
            IdentifierHash.hash(id, a, b, 0);
            assertThat(set.contains(a[0], b[0])).as(id).isEqualTo(reference.contains(id));
            // same first half, other second half: a different identifier
            assertThat(set.contains(a[0], b[0] ^ 1)).isFalse();
        }
    }

    @Test
    void hashedSetLooksUpAChunkExactlyWhateverHitHeldBefore() {
        // the chunked lookup of the join: rows without an identifier are never hits, stale hits are cleared, and a
        // hash whose first half is 0 (stored as 1) is found only with its own second half
        Set<String> reference = new HashSet<>();
        HashedIdentifierSet set = new HashedIdentifierSet(3_001, HashedIdentifierSet.DEFAULT_LOAD_FACTOR);
        long[] a = new long[1];
        long[] b = new long[1];
        for (int i = 0; i < 3_000; i++) {
            String id = "acct-" + i * 2;
            IdentifierHash.hash(id, a, b, 0);
            set.add(a[0], b[0]);
            reference.add(id);
        }
        set.add(0, 77);
        int n = 2_048;
        long[] first = new long[n];
        long[] second = new long[n];
        boolean[] present = new boolean[n];
        boolean[] hit = new boolean[n];
        Arrays.fill(hit, true);
        int expected = 0;
        for (int i = 0; i < n - 2; i++) {
            IdentifierHash.hash("acct-" + i, first, second, i);
            present[i] = i % 5 != 0;
            expected += present[i] && reference.contains("acct-" + i) ? 1 : 0;
        }
        first[n - 2] = 0;
        second[n - 2] = 77;
        present[n - 2] = true;
        first[n - 1] = 0;
        second[n - 1] = 78;
        present[n - 1] = true;

        int hits = set.containsAll(first, second, present, hit, n, new int[n], new long[n]);

        for (int i = 0; i < n - 2; i++) {
            assertThat(hit[i]).as("acct-" + i).isEqualTo(present[i] && reference.contains("acct-" + i));
        }
        assertThat(hit[n - 2]).isTrue();
        assertThat(hit[n - 1]).isFalse();
        assertThat(hits).isEqualTo(expected + 1).isGreaterThan(300);
    }

    @Test
    void bothSetsStayWithinTwentyFourBytesPerIdentifier() {
        LongIdentifierSet longs = new LongIdentifierSet(1_000_000, LongIdentifierSet.DEFAULT_LOAD_FACTOR);
        HashedIdentifierSet hashes = new HashedIdentifierSet(1_000_000, HashedIdentifierSet.DEFAULT_LOAD_FACTOR);
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 1_000_000; i++) {
            longs.add(random.nextLong());
            hashes.add(random.nextLong(), random.nextLong());
        }
        assertThat(longs.bytesPerId()).isBetween(14.2, 14.4);
        assertThat(hashes.bytesPerId()).isBetween(22.2, 22.4);
    }
}
