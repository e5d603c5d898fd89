package io.erasure.backup.format;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A header record with the columns then {@code @writeTime.<column>} for each column whose write
 * time is kept, then one record per row (see {@link Csv} for quoting and NULL).
 */
public final class CsvRowWriter implements RowWriter {

    private final Writer out;
    private final List<String> columns;
    private final List<String> writeTimeColumns;
    private final StringBuilder line = new StringBuilder(512);
    private int fields;

    public CsvRowWriter(OutputStream out, List<String> columns, List<String> writeTimeColumns) throws IOException {
        this.out = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        this.columns = List.copyOf(columns);
        this.writeTimeColumns = List.copyOf(writeTimeColumns);
        for (String column : columns) {
            append(column);
        }
        for (String column : writeTimeColumns) {
            append(BackupRow.CSV_WRITE_TIME_PREFIX + column);
        }
        endRecord();
    }

    @Override
    public void write(BackupRow row) throws IOException {
        for (String column : columns) {
            Object value = row.values().get(column);
            append(value == null ? null : BackupValues.text(value));
        }
        for (String column : writeTimeColumns) {
            Long writeTime = row.writeTimes().get(column);
            append(writeTime == null ? null : writeTime.toString());
        }
        endRecord();
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    private void append(String field) {
        if (fields++ > 0) {
            line.append(',');
        }
        Csv.appendField(line, field);
    }

    private void endRecord() throws IOException {
        line.append('\n');
        out.write(line.toString());
        line.setLength(0);
        fields = 0;
    }
}
