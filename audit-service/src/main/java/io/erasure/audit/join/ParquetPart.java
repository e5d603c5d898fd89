package io.erasure.audit.join;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.BackupJson;
import io.erasure.backup.format.ChecksummedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * A Parquet part: its stored bytes streamed to a temporary file while their SHA-256 is computed and
 * checked against the manifest, then opened for reading column by column. Parquet keeps its footer at
 * the end and each column apart, so a part cannot be joined as a stream the way JSON lines are.
 *
 * <p>Only flat columns (neither nested nor repeated) can be read; no other column is ever touched, so
 * a file may hold types the audit cannot map as long as its identifier and key columns are plain.
 * The temporary file is deleted on {@link #close}.
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

    private final String name;
    private final Path file;
    private final ParquetFileReader reader;
    private final MessageType schema;

    private ParquetPart(String name, Path file, ParquetFileReader reader) {
        this.name = name;
        this.file = file;
        this.reader = reader;
        this.schema = reader.getFileMetaData().getSchema();
    }

    /**
     * Stores {@code raw} (closing it) in a temporary file, checks it against {@code sha256}, and opens it.
     *
     * @throws BackupIntegrityException if the bytes do not match the manifest or are not a Parquet file
     * @throws IOException              if reading or the temporary file fails (worth a retry)
     */
    static ParquetPart download(InputStream raw, String name, String sha256) throws IOException {
        Path file = Files.createTempFile("erasure-part-", ".parquet");
        try {
            try (ChecksummedInputStream checked = new ChecksummedInputStream(raw);
                    OutputStream out = Files.newOutputStream(file)) {
                checked.transferTo(out);
                checked.verify(name, sha256);
            }
            return new ParquetPart(name, file, open(name, file));
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    private static ParquetFileReader open(String name, Path file) {
        try {
            return ParquetFileReader.open(
                    new LocalInputFile(file),
                    ParquetReadOptions.builder(new PlainParquetConfiguration()).build());
        } catch (IOException | RuntimeException e) {
            throw new BackupIntegrityException(
                    "part " + name + " matches its manifest's SHA-256 but is not a readable Parquet file: "
                            + BackupJson.rootMessage(e),
                    e);
        }
    }

    String name() {
        return name;
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
     * @param role what the column is for, for the message if it is missing or unreadable
     * @throws BackupIntegrityException if the part has no such flat column or its type cannot be mapped
     */
    ParquetColumn column(String column, String role) {
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
        return ParquetColumn.of(name, type.asPrimitiveType(), schema.getColumnDescription(new String[] {column}));
    }

    /**
     * Reads {@code columns} (distinct) of row group {@code rowGroup}; the readers are positioned on its first
     * row, in the order of {@code columns}.
     */
    ColumnReader[] read(int rowGroup, List<ParquetColumn> columns) throws IOException {
        List<Type> fields = new ArrayList<>();
        for (ParquetColumn column : columns) {
            fields.add(column.type());
        }
        MessageType projection = new MessageType(schema.getName(), fields);
        reader.setRequestedSchema(projection);
        PageReadStore pages = reader.readRowGroup(rowGroup);
        if (pages == null) {
            throw new BackupIntegrityException("part " + name + " ends before its row group " + rowGroup);
        }
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(
                pages, VALUES_ONLY, projection, reader.getFileMetaData().getCreatedBy());
        ColumnReader[] readers = new ColumnReader[columns.size()];
        for (int i = 0; i < readers.length; i++) {
            readers[i] = store.getColumnReader(columns.get(i).descriptor());
        }
        return readers;
    }

    @Override
    public void close() throws IOException {
        try {
            reader.close();
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
