package io.erasure.audit.join;

import io.erasure.audit.scratch.ScratchSpace;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.BackupJson;
import io.erasure.backup.format.ChecksummedInputStream;
import io.erasure.identifiers.IdentifierKind;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.jspecify.annotations.Nullable;

/**
 * A Parquet part, opened for reading column by column. A part of a manifest of ours is read whole (in memory, or in a
 * temporary file when large) while its SHA-256 is computed and checked against the manifest ({@link #download});
 * Parquet keeps its footer at the end and each column apart, so it cannot be joined as a stream the way JSON lines
 * are. A file no manifest of ours describes (an RDS export's) has no SHA-256 to check and is read where it lies, its
 * footer and requested column chunks only ({@link #ranged}).
 *
 * <p>Only flat columns (neither nested nor repeated) can be read; no other column is ever touched, so
 * a file may hold types the audit cannot map as long as its identifier and key columns are plain.
 * A temporary file is deleted on {@link #close}.
 */
final class ParquetPart implements Closeable {

    private static final GroupConverter VALUES_ONLY = new GroupConverter() {
        private final PrimitiveConverter values = new PrimitiveConverter() {};

        @Override
        public Converter getConverter(int fieldIndex) {
            return values;
        }

        @Override
        public void start() {}

        @Override
        public void end() {}
    };

    /** How a part read whole passed its check. */
    private static final String SHA_CHECKED = "matches its manifest's SHA-256";
    /** How a part read where it lies passed its check: every ranged read is of the object planned. */
    private static final String PLANNED = "is the object planned";

    /** Parts up to this size are read in memory; larger ones from a temporary file in {@code java.io.tmpdir}. */
    static final int IN_MEMORY_BYTES = 128 << 20;

    private final String name;
    private final String passed;
    /** Read where it lies: an I/O error is S3's, worth a retry, not damage to bytes already checked. */
    private final boolean remote;

    private final @Nullable Path file;
    private final ParquetFileReader reader;
    private final MessageType schema;

    private ParquetPart(String name, @Nullable Path file, String passed, boolean remote, ParquetFileReader reader) {
        this.name = name;
        this.passed = passed;
        this.remote = remote;
        this.file = file;
        this.reader = reader;
        this.schema = reader.getFileMetaData().getSchema();
    }

    /**
     * Reads {@code raw} (closing it), checks it against {@code sha256}, and opens it: in memory if it is at most
     * {@link #IN_MEMORY_BYTES}, else from a temporary file.
     *
     * @throws BackupIntegrityException if the bytes do not match the manifest or are not a Parquet file
     * @throws IOException              if reading or the temporary file fails (worth a retry)
     */
    static ParquetPart download(InputStream raw, String name, String sha256) throws IOException {
        return download(raw, name, sha256, IN_MEMORY_BYTES);
    }

    /** As {@link #download(InputStream, String, String)}, in memory up to {@code inMemoryBytes}. */
    static ParquetPart download(InputStream raw, String name, String sha256, int inMemoryBytes) throws IOException {
        if (inMemoryBytes < 1) {
            throw new IllegalArgumentException("inMemoryBytes must be positive, got " + inMemoryBytes);
        }
        Path file = null;
        try (ChecksummedInputStream checked = new ChecksummedInputStream(raw)) {
            byte[] bytes = new byte[Math.min(1 << 20, inMemoryBytes)];
            int length = 0;
            int n;
            while ((n = checked.read(bytes, length, bytes.length - length)) >= 0) {
                length += n;
                if (length == bytes.length) {
                    if (length >= inMemoryBytes) {
                        file = ScratchSpace.ofThisProcess().newFile("part-", ".parquet");
                        try (OutputStream out = Files.newOutputStream(file)) {
                            out.write(bytes, 0, length);
                            checked.transferTo(out);
                        }
                        break;
                    }
                    bytes = Arrays.copyOf(bytes, Math.min(inMemoryBytes, bytes.length * 2));
                }
            }
            checked.verify(name, sha256);
            InputFile input = file == null ? new BytesInputFile(bytes, length) : new LocalInputFile(file);
            return new ParquetPart(name, file, SHA_CHECKED, false, open(name, input, SHA_CHECKED, false));
        } catch (IOException | RuntimeException e) {
            if (file != null) {
                Files.deleteIfExists(file);
            }
            throw e;
        }
    }

    /**
     * Opens {@code object} where it lies: only its footer is read now, and each row group's requested column chunks
     * when they are read, each by one ranged read.
     *
     * @throws BackupIntegrityException if it is not a Parquet file
     * @throws IOException              if reading its footer failed (worth a retry)
     */
    static ParquetPart ranged(RangedObject object) throws IOException {
        return new ParquetPart(
                object.name(), null, PLANNED, true, open(object.name(), new RangedInputFile(object), PLANNED, true));
    }

    private static ParquetFileReader open(String name, InputFile input, String passed, boolean remote)
            throws IOException {
        try {
            return ParquetFileReader.open(
                    input,
                    ParquetReadOptions.builder(new PlainParquetConfiguration()).build());
        } catch (IOException | RuntimeException e) {
            if (remote && e instanceof IOException io && !(e instanceof EOFException)) {
                throw io;
            }
            if (e instanceof BackupIntegrityException integrity) {
                throw integrity;
            }
            throw new BackupIntegrityException(
                    "part " + name + " " + passed + " but is not a readable Parquet file: " + BackupJson.rootMessage(e),
                    e);
        }
    }

    String name() {
        return name;
    }

    /** How the part passed its check: "matches its manifest's SHA-256". */
    String passed() {
        return passed;
    }

    long rowCount() {
        return reader.getRecordCount();
    }

    int rowGroups() {
        return reader.getRowGroups().size();
    }

    long rowCount(int rowGroup) {
        return reader.getRowGroups().get(rowGroup).getRowCount();
    }

    /**
     * The flat column {@code column}, mapped to the platform's values.
     *
     * @param declaredType the column's type in the manifest's schema
     * @param role         what the column is for, for the message if it is missing or unreadable
     * @throws BackupIntegrityException if the part has no such flat column or its type cannot be mapped
     */
    ParquetColumn column(String column, String declaredType, String role) {
        if (!schema.containsField(column)) {
            List<String> names = schema.getFields().stream().map(Type::getName).toList();
            throw new BackupIntegrityException(
                    "part " + name + " has no column '" + column + "' (" + role + "); its columns are " + names);
        }
        Type type = schema.getType(column);
        if (!type.isPrimitive() || type.isRepetition(Type.Repetition.REPEATED)) {
            throw new BackupIntegrityException("column '" + column + "' (" + role + ") of part " + name
                    + " is " + (type.isPrimitive() ? "repeated" : "a group")
                    + "; only a flat column can be an identifier or key column");
        }
        return ParquetColumn.of(
                name, type.asPrimitiveType(), schema.getColumnDescription(new String[] {column}), declaredType);
    }

    /**
     * Reads {@code columns} (distinct) of row group {@code rowGroup}; the readers are positioned on its first
     * row, in the order of {@code columns}.
     */
    ColumnReader[] read(int rowGroup, List<ParquetColumn> columns) throws IOException {
        return readers(pages(rowGroup, columns), columns);
    }

    /**
     * Reads {@code columns} (distinct) of row group {@code rowGroup} for the rows {@code rows[0..count)} only,
     * ascending: each reader is positioned on the first of them, and its {@code consume} moves it to the next,
     * skipping the rows between in bulk ({@link MatchingRows}).
     */
    ColumnReader[] readRows(int rowGroup, List<ParquetColumn> columns, long[] rows, int count) throws IOException {
        return readers(new MatchingRows(pages(rowGroup, columns), name, rows, count), columns);
    }

    /**
     * The identifier column {@code column} of row group {@code rowGroup}, to be read a page at a time, or null if
     * {@link IdentifierPages} cannot read it (read it with {@link #read}).
     */
    @Nullable
    IdentifierPages identifierPages(int rowGroup, ParquetColumn column, IdentifierKind kind, int chunkRows)
            throws IOException {
        ColumnChunkMetaData chunk = chunk(rowGroup, column);
        if (chunk == null || !IdentifierPages.reads(column, chunk, kind)) {
            return null;
        }
        PageReadStore pages = pages(rowGroup, List.of(column));
        return new IdentifierPages(name, column, pages.getPageReader(column.descriptor()), chunkRows);
    }

    private ColumnReader[] readers(PageReadStore pages, List<ParquetColumn> columns) {
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(
                pages,
                VALUES_ONLY,
                projection(columns),
                reader.getFileMetaData().getCreatedBy());
        ColumnReader[] readers = new ColumnReader[columns.size()];
        for (int i = 0; i < readers.length; i++) {
            readers[i] = store.getColumnReader(columns.get(i).descriptor());
        }
        return readers;
    }

    private MessageType projection(List<ParquetColumn> columns) {
        List<Type> fields = new ArrayList<>();
        for (ParquetColumn column : columns) {
            fields.add(column.type());
        }
        return new MessageType(schema.getName(), fields);
    }

    /**
     * The pages of {@code columns} (distinct) in row group {@code rowGroup}, each column checked to hold one value (or
     * null) per row: any other count would shift values between rows.
     */
    private PageReadStore pages(int rowGroup, List<ParquetColumn> columns) throws IOException {
        reader.setRequestedSchema(projection(columns));
        PageReadStore pages;
        try {
            pages = reader.readRowGroup(rowGroup);
        } catch (IOException e) {
            if (remote && !(e instanceof EOFException)) {
                throw e; // read where it lies: worth a retry
            }
            // the bytes are checked and local: a chunk that cannot be read is damage, not a failure worth a retry
            throw new BackupIntegrityException(
                    "part " + name + " " + passed + " but its row group " + rowGroup + " cannot be read: "
                            + BackupJson.rootMessage(e),
                    e);
        }
        if (pages == null) {
            throw new BackupIntegrityException("part " + name + " ends before its row group " + rowGroup);
        }
        long rowCount = rowCount(rowGroup);
        for (ParquetColumn column : columns) {
            long values = pages.getPageReader(column.descriptor()).getTotalValueCount();
            if (values != rowCount) {
                throw new BackupIntegrityException("column '" + column.name() + "' of part " + name + " holds " + values
                        + " values in row group " + rowGroup + ", which has " + rowCount + " rows");
            }
        }
        return pages;
    }

    private @Nullable ColumnChunkMetaData chunk(int rowGroup, ParquetColumn column) {
        ColumnPath path = ColumnPath.get(column.descriptor().getPath());
        for (ColumnChunkMetaData chunk : reader.getRowGroups().get(rowGroup).getColumns()) {
            if (chunk.getPath().equals(path)) {
                return chunk;
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        try {
            reader.close();
        } finally {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** A part held in memory: a seekable view of its bytes. */
    private static final class BytesInputFile implements InputFile {
        private final byte[] bytes;
        private final int length;

        BytesInputFile(byte[] bytes, int length) {
            this.bytes = bytes;
            this.length = length;
        }

        @Override
        public long getLength() {
            return length;
        }

        @Override
        public SeekableInputStream newStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(bytes, 0, length);
            return new DelegatingSeekableInputStream(in) {
                @Override
                public long getPos() {
                    return length - in.available();
                }

                @Override
                public void seek(long position) {
                    in.reset();
                    in.skip(position);
                }
            };
        }
    }
}
