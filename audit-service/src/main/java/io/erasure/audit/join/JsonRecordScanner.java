package io.erasure.audit.join;

import io.erasure.backup.format.BackupJson;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * JSON Lines: finds the line's end eight bytes at a time, then walks only the top-level keys of
 * the object up to the last wanted field, skipping values without decoding them (a nested object
 * or a string that contains {@code "customer_id":} is skipped as a whole, never matched).
 */
final class JsonRecordScanner implements RecordScanner {

    private final byte[][] names;
    private final byte[] kinds;
    private final int[] starts;
    private final int[] ends;
    private boolean blank;
    private boolean lastStringEscaped;

    JsonRecordScanner(List<String> fields) {
        this.names = new byte[fields.size()][];
        for (int i = 0; i < names.length; i++) {
            names[i] = fields.get(i).getBytes(StandardCharsets.UTF_8);
        }
        this.kinds = new byte[names.length];
        this.starts = new int[names.length];
        this.ends = new int[names.length];
    }

    @Override
    public int readHeader(byte[] b, int from, int limit) {
        return from;
    }

    @Override
    public int scan(byte[] b, int from, int limit) {
        int lineEnd = Bytes.indexOfNewline(b, from, limit);
        if (lineEnd < 0) {
            return -1;
        }
        for (int f = 0; f < kinds.length; f++) {
            kinds[f] = ABSENT;
        }
        int end = lineEnd > from && b[lineEnd - 1] == '\r' ? lineEnd - 1 : lineEnd;
        int i = skipWhitespace(b, from, end);
        blank = i == end;
        if (!blank) {
            scanObject(b, i, end);
        }
        return lineEnd + 1;
    }

    private void scanObject(byte[] b, int i, int end) {
        if (b[i] != '{') {
            throw new MalformedRecordException("line is not a JSON object");
        }
        int wanted = names.length;
        i = skipWhitespace(b, i + 1, end);
        if (i < end && b[i] == '}') {
            return;
        }
        while (true) {
            if (i >= end || b[i] != '"') {
                throw new MalformedRecordException("expected a field name at column " + i);
            }
            int keyStart = i + 1;
            int keyEnd = endOfString(b, keyStart, end);
            int field = lastStringEscaped ? -1 : field(b, keyStart, keyEnd);
            i = skipWhitespace(b, keyEnd + 1, end);
            if (i >= end || b[i] != ':') {
                throw new MalformedRecordException("expected ':' after a field name");
            }
            i = skipWhitespace(b, i + 1, end);
            if (i >= end) {
                throw new MalformedRecordException("line ends before a value");
            }
            int valueStart = i;
            byte kind;
            byte c = b[i];
            if (c == '"') {
                i = endOfString(b, i + 1, end);
                kind = lastStringEscaped ? ESCAPED_STRING : STRING;
                if (field >= 0) {
                    record(field, kind, valueStart + 1, i);
                }
                i++;
            } else if (c == '{' || c == '[') {
                i = skipNested(b, i, end);
                if (field >= 0) {
                    record(field, OTHER, valueStart, i);
                }
            } else {
                while (i < end && (c = b[i]) != ',' && c != '}' && c != ' ' && c != '\t') {
                    i++;
                }
                kind = b[valueStart] == 'n' ? NULL : b[valueStart] == 't' || b[valueStart] == 'f' ? OTHER : NUMBER;
                if (field >= 0) {
                    record(field, kind, valueStart, i);
                }
            }
            if (field >= 0 && --wanted == 0) {
                // the rest of the line is never parsed: the join only needs these fields
                return;
            }
            i = skipWhitespace(b, i, end);
            if (i >= end) {
                throw new MalformedRecordException("line ends inside the object");
            }
            if (b[i] == ',') {
                i = skipWhitespace(b, i + 1, end);
            } else if (b[i] == '}') {
                return;
            } else {
                throw new MalformedRecordException("expected ',' or '}' at column " + i);
            }
        }
    }

    private void record(int field, byte kind, int start, int end) {
        if (kinds[field] == ABSENT) {
            kinds[field] = kind;
            starts[field] = start;
            ends[field] = end;
        }
    }

    private int field(byte[] b, int from, int to) {
        int length = to - from;
        for (int f = 0; f < names.length; f++) {
            byte[] name = names[f];
            if (name.length == length && kinds[f] == ABSENT && regionEquals(b, from, name)) {
                return f;
            }
        }
        return -1;
    }

    private static boolean regionEquals(byte[] b, int from, byte[] name) {
        for (int k = 0; k < name.length; k++) {
            if (b[from + k] != name[k]) {
                return false;
            }
        }
        return true;
    }

    /** Index of the closing quote of a string whose content starts at {@code from}. */
    private int endOfString(byte[] b, int from, int end) {
        boolean escaped = false;
        for (int i = from; i < end; i++) {
            byte c = b[i];
            if (c == '"') {
                lastStringEscaped = escaped;
                return i;
            }
            if (c == '\\') {
                escaped = true;
                i++;
            }
        }
        throw new MalformedRecordException("line ends inside a string");
    }

    private int skipNested(byte[] b, int i, int end) {
        int depth = 0;
        for (; i < end; i++) {
            byte c = b[i];
            if (c == '"') {
                i = endOfString(b, i + 1, end);
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1;
            }
        }
        throw new MalformedRecordException("line ends inside a nested value");
    }

    private static int skipWhitespace(byte[] b, int i, int end) {
        while (i < end && (b[i] == ' ' || b[i] == '\t')) {
            i++;
        }
        return i;
    }

    @Override
    public String text(byte[] b, int field) {
        int start = starts[field];
        int end = ends[field];
        if (kinds[field] == ESCAPED_STRING) {
            // rare: decode the escapes with a real JSON parser, quotes included
            return BackupJson.MAPPER.readValue(b, start - 1, end - start + 2, String.class);
        }
        return new String(b, start, end - start, StandardCharsets.UTF_8);
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
