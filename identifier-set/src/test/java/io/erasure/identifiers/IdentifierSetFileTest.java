package io.erasure.identifiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdentifierSetFileTest {

    @TempDir
    Path dir;

    @Test
    void aNumericSetReadsBackWithExactlyItsIdentifiersZeroAndNegativesIncluded() throws IOException {
        LongIdentifierSet set = new LongIdentifierSet(5_000, LongIdentifierSet.DEFAULT_LOAD_FACTOR);
        SplittableRandom random = new SplittableRandom(7);
        List<Long> ids = new ArrayList<>(List.of(0L, -1L, Long.MAX_VALUE));
        for (int i = 0; i < 4_000; i++) {
            ids.add(random.nextLong());
        }
        ids.forEach(set::add);
        Path file = dir.resolve("ids");

        IdentifierSetFile.write(set, file);
        IdentifierSet read = IdentifierSetFile.read(file);

        assertThat(read.kind()).isEqualTo(IdentifierKind.NUMERIC);
        assertThat(read.size()).isEqualTo(set.size());
        assertThat(ids)
                .allSatisfy(id -> assertThat(read.contains(id, 0)).as("%d", id).isTrue());
        assertThat(read.contains(42, 0)).isFalse();
    }

    @Test
    void aHashedSetReadsBackWithExactlyItsIdentifiers() throws IOException {
        HashedIdentifierSet set = new HashedIdentifierSet(1_000, HashedIdentifierSet.DEFAULT_LOAD_FACTOR);
        long[] a = new long[1];
        long[] b = new long[1];
        for (int i = 0; i < 1_000; i++) {
            IdentifierHash.hash("customer-" + i, a, b, 0);
            set.add(a[0], b[0]);
        }
        Path file = dir.resolve("ids");

        IdentifierSetFile.write(set, file);
        IdentifierSet read = IdentifierSetFile.read(file);

        assertThat(read.kind()).isEqualTo(IdentifierKind.STRING);
        assertThat(read.size()).isEqualTo(1_000);
        for (int i = 0; i < 1_000; i++) {
            IdentifierHash.hash("customer-" + i, a, b, 0);
            assertThat(read.contains(a[0], b[0])).isTrue();
        }
        IdentifierHash.hash("customer-1000", a, b, 0);
        assertThat(read.contains(a[0], b[0])).isFalse();
    }

    @Test
    void aTruncatedDamagedOrForeignFileIsRefusedRatherThanReadAsASmallerSet() throws IOException {
        LongIdentifierSet set = LongIdentifierSet.of(new long[] {1, 2, 3, 4, 5}, 5);
        Path file = dir.resolve("ids");
        IdentifierSetFile.write(set, file);
        byte[] whole = Files.readAllBytes(file);

        Path truncated = dir.resolve("truncated");
        Files.write(truncated, Arrays.copyOf(whole, whole.length - 12));
        assertThatThrownBy(() -> IdentifierSetFile.read(truncated)).hasMessageContaining("truncated");

        Path damaged = dir.resolve("damaged");
        Files.write(damaged, whole);
        try (RandomAccessFile raf = new RandomAccessFile(damaged.toFile(), "rw")) {
            raf.seek(whole.length - 10);
            raf.write(0x7f);
        }
        assertThatThrownBy(() -> IdentifierSetFile.read(damaged)).hasMessageContaining("fails its checksum");

        Path foreign = dir.resolve("foreign");
        Files.writeString(foreign, "customer_id\n1\n2\n");
        assertThatThrownBy(() -> IdentifierSetFile.read(foreign)).hasMessageContaining("not an identifier set file");
    }
}
