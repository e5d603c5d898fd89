package io.erasure.audit.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.audit.candidates.CandidateFileWriter;
import io.erasure.audit.testdata.GeneratedData;
import io.erasure.audit.testdata.GeneratedData.Part;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.BackupJson;
import io.erasure.backup.format.BackupRow;
import io.erasure.backup.format.Sha256;
import io.erasure.identifiers.HashedIdentifierSet;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.identifiers.LongIdentifierSet;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.key.CanonicalKey;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PartJoinTest {

    static IdentifierSet numericSet(Set<Long> ids) {
        LongIdentifierSet set = new LongIdentifierSet(ids.size(), LongIdentifierSet.DEFAULT_LOAD_FACTOR);
        ids.forEach(set::add);
        return set;
    }

    static IdentifierSet stringSet(Set<String> ids) {
        return HashedIdentifierSet.of(ids);
    }

    static List<Candidate> join(BackupFormat format, BackupSchema schema, Part part, IdentifierSet set)
            throws IOException {
        List<Candidate> found = new ArrayList<>();
        JoinResult result = PartJoiner.of(
                        format, schema, schema.keyColumns().primaryKey(), schema.identifierColumn(), set)
                .join(new ByteArrayInputStream(part.bytes()), part.entry(), found::add);
        assertThat(result.rowsScanned()).isEqualTo(part.entry().rowCount());
        assertThat(result.candidates()).isEqualTo(found.size());
        return found;
    }

    @ParameterizedTest
    @EnumSource(value = BackupFormat.class, mode = EnumSource.Mode.EXCLUDE, names = "SSTABLE")
    void numericIdentifiersGiveExactlyTheRowsOfDeletableCustomersWithFullKeysAndWriteTimes(BackupFormat format)
            throws IOException {
        // 20k rows > several chunks and buffer refills; 300 customers of which every third is deletable
        List<BackupRow> rows = GeneratedData.orders(20_000, 300, 11);
        Set<Long> deletable = new HashSet<>();
        for (long c = 3; c <= 300; c += 3) {
            deletable.add(c);
        }
        Part part = GeneratedData.part(0, format, GeneratedData.ORDERS, rows, c -> !c.endsWith("_id"));

        List<Candidate> found = join(format, GeneratedData.ORDERS, part, numericSet(deletable));

        List<Candidate> expected = GeneratedData.expectedCandidates(rows, GeneratedData.ORDERS, deletable);
        if (!format.streamed()) {
            // Parquet exports carry no write times
            expected = expected.stream()
                    .map(c -> new Candidate(c.key(), c.identifier(), null))
                    .toList();
        }
        assertThat(expected).hasSizeGreaterThan(5_000);
        assertThat(found).containsExactlyElementsOf(expected);
        assertThat(found.get(0).key()).containsOnlyKeys("customer_id", "order_id");
        assertThat(found.get(0).writeTimeMicros() != null).isEqualTo(format.streamed());
    }

    @ParameterizedTest
    @EnumSource(value = BackupFormat.class, mode = EnumSource.Mode.EXCLUDE, names = "SSTABLE")
    void stringIdentifiersWithEscapesAndUtf8MatchTheirHashedSetExactly(BackupFormat format) throws IOException {
        List<BackupRow> rows = GeneratedData.sessions(10_000, 200, 12);
        Set<String> deletable = new HashSet<>();
        for (int n = 1; n <= 200; n += 2) {
            deletable.add(GeneratedData.account(n));
        }
        Part part = GeneratedData.part(3, format, GeneratedData.SESSIONS, rows, c -> false);

        List<Candidate> found = join(format, GeneratedData.SESSIONS, part, stringSet(deletable));

        List<Candidate> expected = GeneratedData.expectedCandidates(rows, GeneratedData.SESSIONS, deletable);
        assertThat(expected).extracting(Candidate::identifier).contains("acct-\"7\"", "compte-é-5");
        assertThat(found).containsExactlyElementsOf(expected);
        assertThat(found.get(0).key()).containsOnlyKeys("account", "device", "started");
        assertThat(found.get(0).writeTimeMicros()).isNull();
    }

    @Test
    void rowsWithoutAUsableIdentifierAreScannedButNeverCandidates() throws IOException {
        String text = """
                {"customer_id":3,"order_id":"a"}
                {"customer_id":null,"order_id":"b"}
                {"order_id":"c"}
                {"customer_id":"3","order_id":"d"}
                {"customer_id":3.0,"order_id":"e"}

                {"customer_id":{"id":3},"order_id":"f"}
                {"customer_id":3,"order_id":"g"}""";
        byte[] bytes = gzip(text);
        ManifestPart entry = new ManifestPart("part-00000.jsonl.gz", 7, Sha256.hex(bytes));

        List<Candidate> found =
                join(BackupFormat.JSONL_GZIP, GeneratedData.ORDERS, new Part(bytes, entry), numericSet(Set.of(3L)));

        assertThat(found).extracting(c -> c.key().get("order_id")).containsExactly("a", "d", "g");
        assertThat(found).extracting(Candidate::identifier).containsExactly("3", "3", "3");
    }

    @ParameterizedTest
    @EnumSource(value = BackupFormat.class, mode = EnumSource.Mode.EXCLUDE, names = "SSTABLE")
    void aCorruptedPartIsAChecksumMismatchNamingThePart(BackupFormat format) throws IOException {
        Part part = GeneratedData.part(7, format, GeneratedData.ORDERS, GeneratedData.orders(5_000, 50, 13), c -> true);
        byte[] corrupted = part.bytes().clone();
        corrupted[corrupted.length / 2] ^= 0x40;

        assertThatThrownBy(() ->
                        join(format, GeneratedData.ORDERS, new Part(corrupted, part.entry()), numericSet(Set.of(1L))))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith("checksum mismatch for part part-00007" + format.extension()
                        + ": the manifest says SHA-256 " + part.entry().sha256());
    }

    @ParameterizedTest
    @EnumSource(
            value = BackupFormat.class,
            names = {"JSONL_GZIP", "JSONL_ZSTD"})
    void aDamagedHeaderIsAChecksumMismatchToo(BackupFormat format) throws IOException {
        Part part = GeneratedData.part(2, format, GeneratedData.ORDERS, GeneratedData.orders(100, 10, 16), c -> true);
        byte[] corrupted = part.bytes().clone();
        corrupted[0] ^= 0x7f;

        assertThatThrownBy(() ->
                        join(format, GeneratedData.ORDERS, new Part(corrupted, part.entry()), numericSet(Set.of(1L))))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith("checksum mismatch for part part-00002" + format.extension());
    }

    @Test
    void aRowCountOtherThanTheManifestsIsCorruption() throws IOException {
        Part part = GeneratedData.part(
                1, BackupFormat.JSONL_ZSTD, GeneratedData.ORDERS, GeneratedData.orders(100, 10, 14), c -> true);
        ManifestPart wrong =
                new ManifestPart(part.entry().name(), 99, part.entry().sha256());

        assertThatThrownBy(() -> join(
                        BackupFormat.JSONL_ZSTD,
                        GeneratedData.ORDERS,
                        new Part(part.bytes(), wrong),
                        numericSet(Set.of(1L))))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("part part-00001.jsonl.zst has 100 rows but its manifest says 99");
    }

    @Test
    void aPartThatMatchesItsChecksumButIsNotJsonLinesIsCorruptNearItsRow() throws IOException {
        byte[] bytes = gzip("{\"customer_id\":1}\n{\"customer_id\":2}\n[\"not an object\"]\n");
        ManifestPart entry = new ManifestPart("part-00000.jsonl.gz", 3, Sha256.hex(bytes));

        assertThatThrownBy(() -> join(
                        BackupFormat.JSONL_GZIP, GeneratedData.ORDERS, new Part(bytes, entry), numericSet(Set.of(1L))))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("part part-00000.jsonl.gz is corrupt near row 1: line is not a JSON object");
    }

    @Test
    void aFailingOutputIsNotReportedAsACorruptPart() throws IOException {
        Part part = GeneratedData.part(
                0, BackupFormat.JSONL_GZIP, GeneratedData.ORDERS, GeneratedData.orders(100, 2, 15), c -> true);
        PartJoin join = new PartJoin(
                BackupFormat.JSONL_GZIP,
                GeneratedData.ORDERS,
                List.of("customer_id", "order_id"),
                "customer_id",
                numericSet(Set.of(1L, 2L)));

        assertThatThrownBy(() -> join.join(new ByteArrayInputStream(part.bytes()), part.entry(), c -> {
                    throw new IOException("S3 unavailable");
                }))
                .isExactlyInstanceOf(IOException.class)
                .hasMessage("S3 unavailable");
    }

    @Test
    void candidateFilesAreGzipJsonLinesInTheContractShapeAndDeterministic() throws IOException {
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("customer_id", 42L);
        key.put("order_id", "o-\"1\"");
        List<Candidate> candidates = List.of(
                new Candidate(key, "42", 1_706_666_400_000_001L), new Candidate(Map.of("account", "é"), "é", null));

        byte[] first = write(candidates);

        assertThat(write(candidates)).isEqualTo(first);
        String text =
                new String(new GZIPInputStream(new ByteArrayInputStream(first)).readAllBytes(), StandardCharsets.UTF_8);
        assertThat(text).isEqualTo("""
                {"key":{"customer_id":42,"order_id":"o-\\"1\\""},"identifier":"42","writeTimeMicros":1706666400000001}
                {"key":{"account":"é"},"identifier":"é","writeTimeMicros":null}
                """);
        // validation reads the lines back as the contract's record, with the same canonical key
        Candidate back = BackupJson.MAPPER.readValue(text.lines().findFirst().orElseThrow(), Candidate.class);
        assertThat(CanonicalKey.render(back.key()))
                .isEqualTo(CanonicalKey.render(candidates.get(0).key()));
        assertThat(back.identifier()).isEqualTo("42");
        assertThat(back.writeTimeMicros()).isEqualTo(1_706_666_400_000_001L);
    }

    private static byte[] write(List<Candidate> candidates) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CandidateFileWriter writer = new CandidateFileWriter(out)) {
            for (Candidate candidate : candidates) {
                writer.accept(candidate);
            }
        }
        return out.toByteArray();
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
