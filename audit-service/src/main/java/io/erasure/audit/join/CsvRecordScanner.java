package io.erasure.audit.join;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.Csv;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * CSV ({@link Csv}'s dialect): the header names the fields; each record is walked field by field,
 * quote-aware, because a quoted field may hold a newline.
 */
final class CsvRecordScanner implements RecordScanner {

    private final List<String> wanted;
    private final byte[] kinds;
    private final int[] starts;
    private final int[] ends;
    /** For each CSV column, the wanted field it is, or -1. */
    private int[] fieldOfColumn;

    private List<String> header;
    private boolean blank;

    CsvRecordScanner(List<String> fields) {
        this.wanted = List.copyOf(fields);
        this.kinds = new byte[fields.size()];
        this.starts = new int[fields.size()];
        this.ends = new int[fields.size()];
    }

    @Override
    public int readHeader(byte[] b, int from, int limit) {
        int end = Bytes.indexOfNewline(b, from, limit);
        if (end < 0) {
            return -1;
        }
        try {
            int textEnd = end > from && b[end - 1] == '\r' ? end - 1 : end;
            header = new Csv.RecordReader(new StringReader(new String(b, from, textEnd - from, StandardCharsets.UTF_8)))
                    .next();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        if (header == null) {
            throw new BackupIntegrityException("CSV part has an empty header record");
        }
        fieldOfColumn = new int[header.size()];
        Arrays.fill(fieldOfColumn, -1);
        for (int f = 0; f < wanted.size(); f++) {
            int column = header.indexOf(wanted.get(f));
            if (column >= 0) {
                fieldOfColumn[column] = f;
            }
        }
        return end + 1;
    }

    /** The header's column names (after {@link #readHeader}). */
    List<String> header() {
        return header;
    }

    @Override
    public int scan(byte[] b, int from, int limit) {
        for (int f = 0; f < kinds.length; f++) {
            kinds[f] = ABSENT;
        }
        if (from >= limit) {
            return -1;
        }
        if (b[from] == '\n' || (b[from] == '\r' && from + 1 < limit && b[from + 1] == '\n')) {
            blank = true;
            return b[from] == '\n' ? from + 1 : from + 2;
        }
        blank = false;
        int column = 0;
        int i = from;
        while (true) {
            int start;
            int end;
            byte kind;
            if (i < limit && b[i] == '"') {
                start = i + 1;
                boolean escaped = false;
                int j = start;
                while (true) {
                    if (j >= limit) {
                        return -1;
                    }
                    if (b[j] == '"') {
                        if (j + 1 >= limit) {
                            return -1;
                        }
                        if (b[j + 1] != '"') {
                            break;
                        }
                        escaped = true;
                        j += 2;
                    } else {
                        j++;
                    }
                }
                end = j;
                i = j + 1;
                kind = escaped ? ESCAPED_STRING : STRING;
            } else {
                start = i;
                while (i < limit && b[i] != ',' && b[i] != '\n') {
                    i++;
                }
                if (i >= limit) {
                    return -1;
                }
                end = i > start && b[i - 1] == '\r' && b[i] == '\n' ? i - 1 : i;
                // CSV has no types: an unquoted field is text like a quoted one
                kind = end == start ? NULL : STRING;
            }
            if (column < fieldOfColumn.length && fieldOfColumn[column] >= 0) {
                int f = fieldOfColumn[column];
                kinds[f] = kind;
                starts[f] = start;
                ends[f] = end;
            }
            column++;
            if (i >= limit) {
                return -1;
            }
            byte c = b[i];
            if (c == ',') {
                i++;
                continue;
            }
            if (c == '\r' && i + 1 < limit && b[i + 1] == '\n') {
                i++;
                c = '\n';
            } else if (c == '\r') {
                return i + 1 >= limit ? -1 : fail("a quoted field is followed by a bare carriage return");
            }
            if (c != '\n') {
                return fail("a quoted field is followed by '" + (char) c + "' instead of ',' or a line end");
            }
            if (column != fieldOfColumn.length) {
                return fail("record has " + column + " fields but the header has " + fieldOfColumn.length);
            }
            return i + 1;
        }
    }

    private static int fail(String message) {
        throw new MalformedRecordException(message);
    }

    @Override
    public String text(byte[] b, int field) {
        String raw = new String(b, starts[field], ends[field] - starts[field], StandardCharsets.UTF_8);
        return kinds[field] == ESCAPED_STRING ? raw.replace("\"\"", "\"") : raw;
    }

    @Override
    public boolean blank() {
        return blank;
    }

    @Override
    public byte kind(int field) {
        return kinds[field];
    }

    @Override
    public int start(int field) {
        return starts[field];
    }

    @Override
    public int end(int field) {
        return ends[field];
    }
}
