package io.erasure.backup.format;

import io.erasure.model.dataset.BackupFormat;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/** Writes rows in a part's text format (JSON Lines or CSV) to an uncompressed stream. Not thread-safe. */
public interface RowWriter {

    void write(BackupRow row) throws IOException;

    /** Flushes buffered text into the stream without closing it. */
    void flush() throws IOException;

    /**
     * A writer for {@code format}.
     *
     * @param columns           the schema's columns, in order
     * @param writeTimeColumns  the columns whose write times are kept (CSV needs them up front for its header)
     */
    static RowWriter forFormat(
            BackupFormat format, OutputStream out, List<String> columns, List<String> writeTimeColumns)
            throws IOException {
        return format == BackupFormat.CSV
                ? new CsvRowWriter(out, columns, writeTimeColumns)
                : new JsonLinesRowWriter(out, columns);
    }
}
