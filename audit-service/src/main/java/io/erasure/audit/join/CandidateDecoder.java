package io.erasure.audit.join;

import io.erasure.backup.format.BackupJson;
import io.erasure.backup.format.BackupRow;
import io.erasure.backup.format.Csv;
import io.erasure.backup.format.PartReader;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.candidate.Candidate;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Fully parses a matching row (about 1 % of them) into a {@link Candidate}: the full primary key
 * in key order, the identifier as text, and the row's latest write time in the backup.
 */
abstract sealed class CandidateDecoder {

    final List<String> keyColumns;
    final String identifierColumn;

    CandidateDecoder(List<String> keyColumns, String identifierColumn) {
        this.keyColumns = keyColumns;
        this.identifierColumn = identifierColumn;
    }

    abstract Candidate decode(byte[] b, int from, int to);

    static CandidateDecoder of(
            boolean csv,
            BackupSchema schema,
            List<String> keyColumns,
            String identifierColumn,
            CsvRecordScanner scanner) {
        return csv
                ? new CsvDecoder(schema, keyColumns, identifierColumn, scanner)
                : new JsonDecoder(keyColumns, identifierColumn);
    }

    static Candidate candidate(Map<String, Object> key, String identifier, Long writeTime) {
        try {
            return new Candidate(key, identifier, writeTime);
        } catch (IllegalArgumentException e) {
            throw new MalformedRecordException("matching row cannot be a candidate: " + e.getMessage());
        }
    }

    static final class JsonDecoder extends CandidateDecoder {
        JsonDecoder(List<String> keyColumns, String identifierColumn) {
            super(keyColumns, identifierColumn);
        }

        @Override
        Candidate decode(byte[] b, int from, int to) {
            JsonNode row = BackupJson.MAPPER.readTree(b, from, to - from);
            JsonNode id = row.get(identifierColumn);
            String identifier = id == null || id.isNull() ? null : id.isString() ? id.stringValue() : id.asString();
            Map<String, Object> key = new LinkedHashMap<>();
            for (String column : keyColumns) {
                key.put(column, PartReader.javaValue(row.get(column)));
            }
            Long writeTime = null;
            JsonNode writeTimes = row.get(BackupRow.WRITE_TIMES_FIELD);
            if (writeTimes != null && writeTimes.isObject()) {
                for (JsonNode micros : writeTimes.values()) {
                    if (micros.isIntegralNumber() && (writeTime == null || micros.longValue() > writeTime)) {
                        writeTime = micros.longValue();
                    }
                }
            }
            return candidate(key, identifier, writeTime);
        }
    }

    static final class CsvDecoder extends CandidateDecoder {
        private final Map<String, String> types = new HashMap<>();
        private final CsvRecordScanner scanner;

        CsvDecoder(BackupSchema schema, List<String> keyColumns, String identifierColumn, CsvRecordScanner scanner) {
            super(keyColumns, identifierColumn);
            for (ColumnSchema column : schema.columns()) {
                types.put(column.name(), column.type());
            }
            this.scanner = scanner;
        }

        @Override
        Candidate decode(byte[] b, int from, int to) {
            List<String> fields;
            try {
                fields = new Csv.RecordReader(new StringReader(new String(b, from, to - from, StandardCharsets.UTF_8)))
                        .next();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<String> header = scanner.header();
            String identifier = fields.get(header.indexOf(identifierColumn));
            Map<String, Object> key = new LinkedHashMap<>();
            for (String column : keyColumns) {
                int index = header.indexOf(column);
                key.put(column, index < 0 ? null : PartReader.typed(types.get(column), fields.get(index)));
            }
            Long writeTime = null;
            for (int i = 0; i < header.size(); i++) {
                if (header.get(i).startsWith(BackupRow.CSV_WRITE_TIME_PREFIX) && fields.get(i) != null) {
                    long micros = Long.parseLong(fields.get(i));
                    writeTime = writeTime == null ? micros : Math.max(writeTime, micros);
                }
            }
            return candidate(key, identifier, writeTime);
        }
    }
}
