package io.erasure.audit.join;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The decompressed bytes of a part, held in one growing buffer and handed out record by record
 * through a {@link RecordScanner}. Offsets of records stay valid until the next {@link #refill()}
 * (which moves the unread rest to the front), so a caller can collect a chunk of records and look
 * at them all before reading on.
 *
 * <pre>
 * while (records.refill()) {
 *     while (records.next()) { ... records.start(), records.end(), scanner fields ... }
 * }
 * </pre>
 */
final class RecordBuffer {

    private static final int INITIAL_SIZE = 1 << 20;

    private final InputStream in;
    private final RecordScanner scanner;
    private byte[] buf = new byte[INITIAL_SIZE];
    private int pos;
    private int limit;
    private int start;
    private boolean eof;
    private boolean headerRead;
    private long records;

    RecordBuffer(InputStream in, RecordScanner scanner) {
        this.in = in;
        this.scanner = scanner;
    }

    byte[] bytes() {
        return buf;
    }

    /** Offset of the current record. */
    int start() {
        return start;
    }

    /** Offset just after the current record (past its newline). */
    int end() {
        return pos;
    }

    /** Non-blank records handed out so far. */
    long records() {
        return records;
    }

    /**
     * Makes room and reads more input.
     *
     * @return false once the input is exhausted and every record was handed out
     * @throws MalformedRecordException if the input ends inside a record or has no header where one is needed
     */
    boolean refill() throws IOException {
        if (eof) {
            if (pos < limit) {
                throw new MalformedRecordException("the last record is incomplete");
            }
            if (!headerRead) {
                throw new MalformedRecordException("the part has no header record");
            }
            return false;
        }
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        } else if (limit == buf.length) {
            // a single record longer than the whole buffer
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        while (!eof && limit < buf.length) {
            int n = in.read(buf, limit, buf.length - limit);
            if (n < 0) {
                eof = true;
            } else {
                limit += n;
            }
        }
        if (eof && pos < limit && buf[limit - 1] != '\n') {
            // the last record may lack its newline
            if (limit == buf.length) {
                buf = Arrays.copyOf(buf, buf.length + 1);
            }
            buf[limit++] = '\n';
        }
        if (!headerRead) {
            int next = scanner.readHeader(buf, pos, limit);
            if (next >= 0) {
                pos = next;
                headerRead = true;
            }
        }
        return true;
    }

    /** Scans the next complete, non-blank record in the buffer; false if none is left (call {@link #refill()}). */
    boolean next() {
        if (!headerRead) {
            return false;
        }
        while (true) {
            int next = scanner.scan(buf, pos, limit);
            if (next < 0) {
                return false;
            }
            start = pos;
            pos = next;
            if (!scanner.blank()) {
                records++;
                return true;
            }
        }
    }
}
