package io.erasure.audit.join;

import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.BackupJson;
import io.erasure.backup.format.ChecksummedInputStream;
import io.erasure.backup.format.PartCompression;
import io.erasure.identifiers.HashedIdentifierSet;
import io.erasure.identifiers.IdentifierKind;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.identifiers.LongIdentifierSet;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.dataset.BackupFormat;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.parquet.column.ColumnReader;

/**
 * Builds the {@link IdentifierSet} of one audit from the identifier source's backup: every
 * identifier whose deletable-since time is set and at or before the run's threshold (see
 * {@code AuditPlan}). Parts are read in parallel and verified like data parts; the same scanners
 * read only the two fields needed.
 */
public final class IdentifierSetLoader {

    private final BackupBucket bucket;
    private final int parallelism;

    public IdentifierSetLoader(BackupBucket bucket, int parallelism) {
        this.bucket = bucket;
        this.parallelism = Math.max(1, parallelism);
    }

    /**
     * @param identifierColumn     the identifier source's identifier column
     * @param deletableSinceColumn the column that says since when an identifier may be deleted (null: not deletable)
     * @param deletableUpToMicros  identifiers deletable since after this instant are left out
     * @throws BackupIntegrityException if a part is missing, corrupt or not as its manifest says
     */
    public IdentifierSet load(
            BackupManifest manifest,
            String manifestKey,
            String identifierColumn,
            String deletableSinceColumn,
            IdentifierKind kind,
            long deletableUpToMicros)
            throws IOException {
        List<ManifestPart> parts = manifest.parts();
        List<Ids> loaded = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallelism, Math.max(1, parts.size())), r -> {
            Thread t = new Thread(r, "identifier-loader");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Ids>> futures = new ArrayList<>();
            for (ManifestPart part : parts) {
                futures.add(pool.submit(() -> loadPart(
                        manifest.format(),
                        manifest.schema(),
                        BackupBucket.partKey(manifestKey, part),
                        part,
                        identifierColumn,
                        deletableSinceColumn,
                        kind,
                        deletableUpToMicros)));
            }
            for (Future<Ids> future : futures) {
                loaded.add(future.get());
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while loading identifiers", e);
        } finally {
            pool.shutdownNow();
        }
        return build(kind, loaded);
    }

    static IdentifierSet build(IdentifierKind kind, List<Ids> loaded) {
        int total = loaded.stream().mapToInt(ids -> ids.count).sum();
        if (kind == IdentifierKind.NUMERIC) {
            LongIdentifierSet set = new LongIdentifierSet(total, LongIdentifierSet.DEFAULT_LOAD_FACTOR);
            for (Ids ids : loaded) {
                for (int i = 0; i < ids.count; i++) {
                    set.add(ids.a[i]);
                }
            }
            return set;
        }
        HashedIdentifierSet set = new HashedIdentifierSet(total, HashedIdentifierSet.DEFAULT_LOAD_FACTOR);
        for (Ids ids : loaded) {
            for (int i = 0; i < ids.count; i++) {
                set.add(ids.a[i], ids.b[i]);
            }
        }
        return set;
    }

    private Ids loadPart(
            BackupFormat format,
            BackupSchema schema,
            String key,
            ManifestPart part,
            String identifierColumn,
            String deletableSinceColumn,
            IdentifierKind kind,
            long deletableUpToMicros)
            throws IOException {
        if (!format.streamed()) {
            return loadParquetPart(
                    key, part, schema, identifierColumn, deletableSinceColumn, kind, deletableUpToMicros);
        }
        RecordScanner scanner = format == BackupFormat.CSV
                ? new CsvRecordScanner(List.of(identifierColumn, deletableSinceColumn))
                : new JsonRecordScanner(List.of(identifierColumn, deletableSinceColumn));
        IdentifierField identifier = new IdentifierField(kind);
        Ids ids = new Ids(kind);
        ChecksummedInputStream checked = new ChecksummedInputStream(bucket.openPart(key));
        InputStream in;
        try {
            in = PartCompression.decompress(format, checked);
        } catch (BackupIntegrityException e) {
            checked.verify(key, part.sha256());
            throw new BackupIntegrityException("identifier part " + key + " is corrupt: " + e.getMessage(), e);
        }
        RecordBuffer records = new RecordBuffer(in, scanner);
        try {
            try {
                collect(records, scanner, identifier, ids, deletableSinceColumn, deletableUpToMicros);
            } catch (BackupIntegrityException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                checked.verify(key, part.sha256());
                throw new BackupIntegrityException(
                        "identifier part " + key + " is corrupt near row " + records.records() + ": "
                                + BackupJson.rootMessage(e),
                        e);
            }
            checked.verify(key, part.sha256());
        } finally {
            in.close();
        }
        if (records.records() != part.rowCount()) {
            throw new BackupIntegrityException("identifier part " + key + " has " + records.records()
                    + " rows but its manifest says " + part.rowCount());
        }
        return ids;
    }

    private Ids loadParquetPart(
            String key,
            ManifestPart part,
            BackupSchema schema,
            String identifierColumn,
            String deletableSinceColumn,
            IdentifierKind kind,
            long deletableUpToMicros)
            throws IOException {
        Ids ids = new Ids(kind);
        try (ParquetPart file = ParquetPart.download(bucket.openPart(key), key, part.sha256())) {
            if (file.rowCount() != part.rowCount()) {
                throw new BackupIntegrityException("identifier part " + key + " has " + file.rowCount()
                        + " rows but its manifest says " + part.rowCount());
            }
            ParquetColumn identifier = file.column(
                    identifierColumn,
                    declaredType(schema, identifierColumn),
                    "the identifier source's identifier column");
            identifier.requireIdentifier(kind, "the identifier source's identifier column");
            ParquetColumn since = file.column(
                    deletableSinceColumn,
                    declaredType(schema, deletableSinceColumn),
                    "the identifier source's deletable-since column");
            since.requireTimestamp("the identifier source's deletable-since column");
            List<ParquetColumn> columns = List.of(identifier, since);
            for (int group = 0; group < file.rowGroups(); group++) {
                try {
                    ColumnReader[] readers = file.read(group, columns);
                    for (long row = file.rowCount(group); row > 0; row--) {
                        if (!since.isNull(readers[1]) && since.micros(readers[1]) <= deletableUpToMicros) {
                            ids.ensureRoom();
                            if (identifier.identifier(readers[0], kind, ids.a, ids.b, null, ids.count)) {
                                ids.count++;
                            }
                            readers[0].consume();
                        } else {
                            identifier.skip(readers[0]);
                        }
                        readers[1].consume();
                    }
                } catch (BackupIntegrityException e) {
                    throw e;
                } catch (RuntimeException e) {
                    throw new BackupIntegrityException(
                            "identifier part " + key + " matches its manifest's SHA-256" + " but its row group " + group
                                    + " cannot be decoded: " + BackupJson.rootMessage(e),
                            e);
                }
            }
        }
        return ids;
    }

    private static String declaredType(BackupSchema schema, String column) {
        return schema.columns().stream()
                .filter(c -> c.name().equals(column))
                .map(ColumnSchema::type)
                .findFirst()
                .orElseThrow(() -> new BackupIntegrityException(
                        "the identifier manifest's schema has no column '" + column + "'"));
    }

    private static void collect(
            RecordBuffer records,
            RecordScanner scanner,
            IdentifierField identifier,
            Ids ids,
            String deletableSinceColumn,
            long deletableUpToMicros)
            throws IOException {
        while (records.refill()) {
            while (records.next()) {
                byte[] buf = records.bytes();
                byte since = scanner.kind(1);
                if (since == RecordScanner.NULL || since == RecordScanner.ABSENT) {
                    continue;
                }
                if (since != RecordScanner.STRING && since != RecordScanner.ESCAPED_STRING) {
                    throw new MalformedRecordException(deletableSinceColumn + " must be an ISO-8601 timestamp string"
                            + " such as \"2024-01-31T02:00:00Z\"");
                }
                long micros;
                try {
                    micros = since == RecordScanner.STRING
                            ? Timestamps.parseMicros(buf, scanner.start(1), scanner.end(1))
                            : Timestamps.parseMicros(scanner.text(buf, 1));
                } catch (IllegalArgumentException e) {
                    throw new MalformedRecordException(deletableSinceColumn + ": " + e.getMessage());
                }
                if (micros <= deletableUpToMicros) {
                    ids.ensureRoom();
                    if (identifier.extract(scanner, 0, buf, ids.a, ids.b, ids.count)) {
                        ids.count++;
                    }
                }
            }
        }
    }

    /** Identifiers of one part, in growable primitive arrays. */
    static final class Ids {
        long[] a = new long[1024];
        long[] b;
        int count;

        Ids(IdentifierKind kind) {
            // numeric identifiers have no second half
            b = kind == IdentifierKind.STRING ? new long[1024] : null;
        }

        void ensureRoom() {
            if (count == a.length) {
                a = Arrays.copyOf(a, a.length * 2);
                b = b == null ? null : Arrays.copyOf(b, b.length * 2);
            }
        }
    }
}
