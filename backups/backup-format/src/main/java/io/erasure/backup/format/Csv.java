package io.erasure.backup.format;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 4180 CSV as part files use it: comma-separated, {@code "} quotes a field and {@code ""} is a
 * quote inside one, quoted fields may span lines, records end with {@code \n} (a {@code \r} before
 * it is dropped). An empty unquoted field is SQL NULL; an empty string is written {@code ""}
 * (PostgreSQL's {@code COPY ... FORMAT csv} convention).
 */
public final class Csv {

    private Csv() {}

    /** Appends {@code value} as one field: null as nothing, anything with a comma, quote, CR/LF or empty quoted. */
    public static void appendField(StringBuilder out, String value) {
        if (value == null) {
            return;
        }
        boolean quote = value.isEmpty();
        for (int i = 0; i < value.length() && !quote; i++) {
            char c = value.charAt(i);
            quote = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote) {
            out.append(value);
            return;
        }
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                out.append('"');
            }
            out.append(c);
        }
        out.append('"');
    }

    /** Reads records one at a time from a character stream. */
    public static final class RecordReader {
        private final Reader in;
        private long record;

        public RecordReader(Reader in) {
            this.in = in;
        }

        /** The next record's fields (null for an empty unquoted field), or null at the end of input. */
        public List<String> next() throws IOException {
            int c = read();
            if (c < 0) {
                return null;
            }
            record++;
            List<String> fields = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            boolean quoted = false;
            boolean wasQuoted = false;
            while (true) {
                if (quoted) {
                    if (c < 0) {
                        throw new BackupIntegrityException("CSV record " + record + " ends inside a quoted field");
                    }
                    if (c == '"') {
                        int next = read();
                        if (next == '"') {
                            field.append('"');
                        } else {
                            quoted = false;
                            c = next;
                            continue;
                        }
                    } else {
                        field.append((char) c);
                    }
                } else if (c == '"' && field.isEmpty() && !wasQuoted) {
                    quoted = true;
                    wasQuoted = true;
                } else if (c == ',' || c == '\n' || c < 0) {
                    fields.add(field.isEmpty() && !wasQuoted ? null : field.toString());
                    if (c != ',') {
                        return fields;
                    }
                    field.setLength(0);
                    wasQuoted = false;
                } else if (c == '\r') {
                    int next = read();
                    if (next == '\n' || next < 0) {
                        c = '\n';
                    } else {
                        field.append('\r');
                        c = next;
                    }
                    continue;
                } else {
                    field.append((char) c);
                }
                c = read();
            }
        }

        private int read() throws IOException {
            return in.read();
        }
    }
}
