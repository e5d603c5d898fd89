package io.erasure.audit.join;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.BackupJson;
import io.erasure.backup.format.ChecksummedInputStream;
import io.erasure.backup.format.PartCompression;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.dataset.BackupFormat;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * The streaming join of one backup part against the deletable identifiers: decompress, find only
 * the identifier field of each row, look a chunk of identifiers up back to back, fully parse only
 * the rows that match and hand them to a {@link CandidateSink}.
 *
 * <p>The part's SHA-256 is computed on the stored bytes while they stream and checked at the end,
 * with its row count. Candidates are handed out before that check, so callers must discard them
 * when {@link #join} throws (the unit writes them to an upload it aborts).
 *
 * <p>One instance per thread (it owns its buffers); reusable for any number of parts.
 */
public final class PartJoin implements PartJoiner {

    static final int CHUNK_ROWS = 2048;

    private final BackupFormat format;
    private final IdentifierSet identifiers;
    private final RecordScanner scanner;
    private final IdentifierField identifierField;
    private final CandidateDecoder decoder;

    private final long[] a = new long[CHUNK_ROWS];
    private final long[] b = new long[CHUNK_ROWS];
    private final boolean[] present = new boolean[CHUNK_ROWS];
    private final boolean[] hit = new boolean[CHUNK_ROWS];
    private final int[] starts = new int[CHUNK_ROWS];
    private final int[] ends = new int[CHUNK_ROWS];
    private final int[] slots = new int[CHUNK_ROWS];
    private final long[] scratch = new long[CHUNK_ROWS];

    /**
     * @param keyColumns       the dataset's primary key, in order: each candidate carries all of them
     * @param identifierColumn the dataset's identifier column (present in {@code schema}, checked by the planner)
     */
    public PartJoin(
            BackupFormat format,
            BackupSchema schema,
            List<String> keyColumns,
            String identifierColumn,
            IdentifierSet identifiers) {
        this.format = format;
        this.identifiers = identifiers;
        List<String> fields = List.of(identifierColumn);
        CsvRecordScanner csv = format == BackupFormat.CSV ? new CsvRecordScanner(fields) : null;
        this.scanner = csv != null ? csv : new JsonRecordScanner(fields);
        this.identifierField = new IdentifierField(identifiers.kind());
        this.decoder = CandidateDecoder.of(csv != null, schema, List.copyOf(keyColumns), identifierColumn, csv);
    }

    @Override
    public JoinResult join(InputStream raw, ManifestPart part, CandidateSink sink) throws IOException {
        ChecksummedInputStream checked = new ChecksummedInputStream(raw);
        long[] counts = new long[2];
        InputStream in;
        try {
            in = PartCompression.decompress(format, checked);
        } catch (BackupIntegrityException e) {
            // not even a valid header: the checksum says whether the part was damaged after the manifest
            checked.verify(part.name(), part.sha256());
            throw new BackupIntegrityException("part " + part.name() + " is corrupt: " + e.getMessage(), e);
        }
        try {
            try {
                run(in, sink, counts);
            } catch (SinkFailure e) {
                throw e.rethrow();
            } catch (BackupIntegrityException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                // a corrupt part usually fails to decode before its checksum can be compared: compare now
                checked.verify(part.name(), part.sha256());
                throw new BackupIntegrityException(
                        "part " + part.name() + " is corrupt near row " + (counts[0] + 1) + ": "
                                + BackupJson.rootMessage(e),
                        e);
            }
            // before closing: the checksum needs the bytes the decompressor left unread
            checked.verify(part.name(), part.sha256());
        } finally {
            in.close();
        }
        if (counts[0] != part.rowCount()) {
            throw new BackupIntegrityException(
                    "part " + part.name() + " has " + counts[0] + " rows but its manifest says " + part.rowCount());
        }
        return new JoinResult(counts[0], counts[1]);
    }

    private void run(InputStream in, CandidateSink sink, long[] counts) throws IOException {
        RecordBuffer records = new RecordBuffer(in, scanner);
        while (records.refill()) {
            boolean more = true;
            while (more) {
                int n = 0;
                while (n < CHUNK_ROWS && (more = records.next())) {
                    starts[n] = records.start();
                    ends[n] = records.end();
                    present[n] = identifierField.extract(scanner, 0, records.bytes(), a, b, n);
                    n++;
                }
                if (n > 0 && identifiers.containsAll(a, b, present, hit, n, slots, scratch) > 0) {
                    for (int i = 0; i < n; i++) {
                        if (hit[i]) {
                            emit(decoder.decode(records.bytes(), starts[i], ends[i]), sink);
                            counts[1]++;
                        }
                    }
                }
                counts[0] += n;
            }
        }
    }

    private static void emit(Candidate candidate, CandidateSink sink) {
        try {
            sink.accept(candidate);
        } catch (IOException | RuntimeException e) {
            throw new SinkFailure(e);
        }
    }
}
