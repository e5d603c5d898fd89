package io.erasure.audit.join;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.BackupJson;
import io.erasure.identifiers.IdentifierKind;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.candidate.Candidate;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.parquet.column.ColumnReader;

/**
 * The join of one Parquet part against the deletable identifiers, by column: the identifier column of
 * a row group is read alone and looked up a chunk at a time, and only row groups with a match read the
 * key columns, decoding them for the matching rows only and skipping the rows between in bulk. A matching
 * row's identifier is kept from the lookups, not read again.
 *
 * <p>The part is read whole (in memory, or in a temporary file when large) and checked against its manifest's
 * SHA-256 before any row
 * is read, so, unlike a streamed part, no candidate of a damaged part is ever handed out. Its row count
 * must match the manifest too. A missing, nested or unmappable identifier or key column fails the part
 * with the column's name; other columns are never read.
 *
 * <p>Parquet parts carry no write times: candidates have none, as rows of a store without them.
 *
 * <p>One instance per thread (it owns its buffers); reusable for any number of parts.
 */
public final class ParquetPartJoin implements PartJoiner {

    private static final int CHUNK_ROWS = PartJoin.CHUNK_ROWS;
    /** In a key index: the identifier kept from the lookups, not a column read again. */
    private static final int KEPT_IDENTIFIER = -1;

    private final int inMemoryBytes;
    private final boolean byPages;
    private final Map<String, String> declaredTypes;
    private final List<String> keyColumns;
    private final String identifierColumn;
    private final IdentifierSet identifiers;

    private final long[] a = new long[CHUNK_ROWS];
    private final long[] b = new long[CHUNK_ROWS];
    private final boolean[] present = new boolean[CHUNK_ROWS];
    private final boolean[] hit = new boolean[CHUNK_ROWS];
    private final int[] slots = new int[CHUNK_ROWS];
    private final long[] scratch = new long[CHUNK_ROWS];
    private long[] hitRows = new long[CHUNK_ROWS];
    private long[] hitIds = new long[CHUNK_ROWS];
    private final Object[] kept = new Object[CHUNK_ROWS];
    private Object[] hitValues = new Object[CHUNK_ROWS];

    /**
     * @param keyColumns       the dataset's primary key, in order: each candidate carries all of them
     * @param identifierColumn the dataset's identifier column
     */
    public ParquetPartJoin(
            BackupSchema schema, List<String> keyColumns, String identifierColumn, IdentifierSet identifiers) {
        this(schema, keyColumns, identifierColumn, identifiers, ParquetPart.IN_MEMORY_BYTES);
    }

    /** With parts larger than {@code inMemoryBytes} read from a temporary file. */
    ParquetPartJoin(
            BackupSchema schema,
            List<String> keyColumns,
            String identifierColumn,
            IdentifierSet identifiers,
            int inMemoryBytes) {
        this(schema, keyColumns, identifierColumn, identifiers, inMemoryBytes, true);
    }

    /** With {@code byPages} false, identifiers are read value by value, as where {@link IdentifierPages} cannot. */
    ParquetPartJoin(
            BackupSchema schema,
            List<String> keyColumns,
            String identifierColumn,
            IdentifierSet identifiers,
            int inMemoryBytes,
            boolean byPages) {
        this.inMemoryBytes = inMemoryBytes;
        this.byPages = byPages;
        this.declaredTypes = new HashMap<>();
        for (ColumnSchema column : schema.columns()) {
            declaredTypes.put(column.name(), column.type());
        }
        this.keyColumns = List.copyOf(keyColumns);
        this.identifierColumn = identifierColumn;
        this.identifiers = identifiers;
    }

    @Override
    public JoinResult join(InputStream raw, ManifestPart part, CandidateSink sink) throws IOException {
        try (ParquetPart file = ParquetPart.download(raw, part.name(), part.sha256(), inMemoryBytes)) {
            if (file.rowCount() != part.rowCount()) {
                throw new BackupIntegrityException("part " + part.name() + " has " + file.rowCount()
                        + " rows but its manifest says " + part.rowCount());
            }
            return join(file, sink);
        }
    }

    /**
     * Joins a Parquet file that no manifest of ours describes (an RDS export's) where it lies: its footer, its
     * identifier column and, in row groups with a match, its key columns are read by ranged reads, each of the object
     * planned; no other byte of it is fetched.
     *
     * @throws BackupIntegrityException if the object changed, the file cannot be decoded or a column cannot be mapped
     * @throws IOException              if reading failed for another reason (worth a retry)
     */
    public JoinResult joinRanged(RangedObject object, CandidateSink sink) throws IOException {
        try (ParquetPart file = ParquetPart.ranged(object)) {
            return join(file, sink);
        }
    }

    private JoinResult join(ParquetPart file, CandidateSink sink) throws IOException {
        ParquetColumn identifier =
                file.column(identifierColumn, declared(identifierColumn), "the dataset's identifier column");
        identifier.requireIdentifier(identifiers.kind(), "the dataset's identifier column");
        // a matching row's identifier is kept from the lookups, so the identifier column is read once
        List<ParquetColumn> decoded = new ArrayList<>();
        int[] keyIndex = new int[keyColumns.size()];
        for (int k = 0; k < keyColumns.size(); k++) {
            String column = keyColumns.get(k);
            if (column.equals(identifierColumn)) {
                keyIndex[k] = KEPT_IDENTIFIER;
                continue;
            }
            int index = indexOf(decoded, column);
            if (index < 0) {
                decoded.add(file.column(column, declared(column), "a primary key column"));
                index = decoded.size() - 1;
            }
            keyIndex[k] = index;
        }
        long candidates = 0;
        for (int group = 0; group < file.rowGroups(); group++) {
            try {
                int hits = findHits(file, group, identifier);
                if (hits > 0) {
                    emit(file, group, decoded, keyIndex, hits, sink);
                    candidates += hits;
                }
            } catch (SinkFailure e) {
                throw e.rethrow();
            } catch (BackupIntegrityException e) {
                throw e;
            } catch (MalformedRecordException e) {
                throw new BackupIntegrityException(
                        "part " + file.name() + ", row group " + group + ": " + e.getMessage(), e);
            } catch (RuntimeException e) {
                throw new BackupIntegrityException(
                        "part " + file.name() + " " + file.passed() + " but its row group " + group
                                + " cannot be decoded: " + BackupJson.rootMessage(e),
                        e);
            }
        }
        return new JoinResult(file.rowCount(), candidates);
    }

    /** Reads the identifiers of one row group and keeps the indexes of the rows that match; returns how many. */
    private int findHits(ParquetPart file, int group, ParquetColumn identifier) throws IOException {
        IdentifierKind kind = identifiers.kind();
        // a page at a time where it can, else value by value
        IdentifierPages pages = byPages ? file.identifierPages(group, identifier, kind, CHUNK_ROWS) : null;
        ColumnReader reader = pages == null ? file.read(group, List.of(identifier))[0] : null;
        long rows = file.rowCount(group);
        // a numeric identifier is its own value; a hashed one's value is kept until the lookups settle the chunk
        Object[] keep = kind == IdentifierKind.NUMERIC ? null : kept;
        int hits = 0;
        for (long start = 0; start < rows; start += CHUNK_ROWS) {
            int n = (int) Math.min(CHUNK_ROWS, rows - start);
            if (pages != null) {
                pages.read(a, b, present, n);
            } else {
                ColumnReader values = Objects.requireNonNull(reader);
                for (int i = 0; i < n; i++) {
                    present[i] = identifier.identifier(values, kind, a, b, keep, i);
                    values.consume();
                }
            }
            if (identifiers.containsAll(a, b, present, hit, n, slots, scratch) > 0) {
                for (int i = 0; i < n; i++) {
                    if (hit[i]) {
                        if (hits == hitRows.length) {
                            hitRows = Arrays.copyOf(hitRows, hits * 2);
                            hitIds = Arrays.copyOf(hitIds, hits * 2);
                            hitValues = Arrays.copyOf(hitValues, hits * 2);
                        }
                        hitIds[hits] = a[i];
                        hitValues[hits] = keep == null ? null : pages != null ? pages.kept(i) : keep[i];
                        hitRows[hits++] = start + i;
                    }
                }
            }
        }
        Arrays.fill(kept, null);
        return hits;
    }

    private void emit(
            ParquetPart file, int group, List<ParquetColumn> columns, int[] keyIndex, int hits, CandidateSink sink)
            throws IOException {
        // the readers move from one matching row to the next
        ColumnReader[] readers = columns.isEmpty() ? new ColumnReader[0] : file.readRows(group, columns, hitRows, hits);
        Object[] values = new Object[columns.size()];
        for (int h = 0; h < hits; h++) {
            for (int c = 0; c < readers.length; c++) {
                values[c] = columns.get(c).value(readers[c]);
                if (h < hits - 1) {
                    readers[c].consume(); // never past the last: see MatchingRows
                }
            }
            Object id = identifiers.kind() == IdentifierKind.NUMERIC
                    ? (Object) hitIds[h]
                    : ParquetColumn.keptValue(hitValues[h]);
            Map<String, Object> key = new LinkedHashMap<>();
            for (int k = 0; k < keyIndex.length; k++) {
                key.put(keyColumns.get(k), keyIndex[k] == KEPT_IDENTIFIER ? id : values[keyIndex[k]]);
            }
            Candidate candidate = CandidateDecoder.candidate(
                    key, id instanceof BigDecimal decimal ? decimal.toPlainString() : String.valueOf(id), null);
            try {
                sink.accept(candidate);
            } catch (IOException | RuntimeException e) {
                throw new SinkFailure(e);
            }
        }
        // a kept value may hold a whole page in memory
        Arrays.fill(hitValues, 0, hits, null);
    }

    /** The manifest's type of {@code column}; the planner checked that every key and identifier column has one. */
    private String declared(String column) {
        String type = declaredTypes.get(column);
        if (type == null) {
            throw new BackupIntegrityException("the manifest's schema has no column '" + column + "'");
        }
        return type;
    }

    private static int indexOf(List<ParquetColumn> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
