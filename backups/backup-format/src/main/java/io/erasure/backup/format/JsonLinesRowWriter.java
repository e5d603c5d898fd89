package io.erasure.backup.format;

import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonGenerator;

/** One JSON object per line: the columns in schema order, then {@code "@writeTimes": {column: micros}} if any. */
public final class JsonLinesRowWriter implements RowWriter {

    private final JsonGenerator generator;
    private final List<String> columns;

    public JsonLinesRowWriter(OutputStream out, List<String> columns) {
        this.generator = BackupJson.MAPPER.createGenerator(out);
        this.columns = List.copyOf(columns);
    }

    @Override
    public void write(BackupRow row) {
        generator.writeStartObject();
        for (String column : columns) {
            generator.writeName(column);
            BackupValues.write(generator, row.values().get(column));
        }
        if (!row.writeTimes().isEmpty()) {
            generator.writeName(BackupRow.WRITE_TIMES_FIELD);
            generator.writeStartObject();
            for (Map.Entry<String, Long> entry : row.writeTimes().entrySet()) {
                if (entry.getValue() != null) {
                    generator.writeNumberProperty(
                            entry.getKey(), entry.getValue().longValue());
                }
            }
            generator.writeEndObject();
        }
        generator.writeEndObject();
        generator.writeRaw('\n');
    }

    @Override
    public void flush() {
        generator.flush();
    }
}
