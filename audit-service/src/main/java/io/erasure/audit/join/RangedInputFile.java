package io.erasure.audit.join;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A {@link RangedObject} as parquet-java's input: each read the reader makes becomes a ranged read of exactly those
 * bytes (a row group's requested column chunks, in the pieces the reader allocates them in), but for the footer: the
 * reader's first read, of the footer's length at the end of the file, fetches the file's last {@value #TAIL} bytes,
 * from which the footer is then read too.
 */
final class RangedInputFile implements InputFile {

    /** The end of a file fetched by its first read, which holds its footer (unless the footer is larger). */
    static final int TAIL = 64 * 1024;

    private final RangedObject object;

    RangedInputFile(RangedObject object) {
        this.object = object;
    }

    @Override
    public long getLength() {
        return object.size();
    }

    @Override
    public SeekableInputStream newStream() {
        return new Stream();
    }

    private final class Stream extends SeekableInputStream {
        private long pos;
        private byte[] window = new byte[0];
        private long windowStart;

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void seek(long position) throws IOException {
            if (position < 0 || position > object.size()) {
                throw new EOFException(
                        "seek to " + position + " outside " + object.name() + " (" + object.size() + " bytes)");
            }
            pos = position;
        }

        @Override
        public int read() throws IOException {
            if (pos >= object.size()) {
                return -1;
            }
            byte[] one = new byte[1];
            readFully(one, 0, 1);
            return one[0] & 0xff;
        }

        @Override
        public int read(byte[] bytes, int at, int length) throws IOException {
            Objects.checkFromIndexSize(at, length, bytes.length);
            if (length == 0) {
                return 0;
            }
            int n = (int) Math.min(length, object.size() - pos);
            if (n <= 0) {
                return -1;
            }
            readFully(bytes, at, n);
            return n;
        }

        @Override
        public void readFully(byte[] bytes) throws IOException {
            readFully(bytes, 0, bytes.length);
        }

        @Override
        public void readFully(byte[] bytes, int at, int length) throws IOException {
            Objects.checkFromIndexSize(at, length, bytes.length);
            if (length == 0) {
                return;
            }
            if (length > object.size() - pos) {
                throw new EOFException("reading " + length + " bytes at " + pos + " of " + object.name() + " ("
                        + object.size() + " bytes)");
            }
            if (pos >= windowStart && pos + length <= windowStart + window.length) {
                System.arraycopy(window, (int) (pos - windowStart), bytes, at, length);
            } else if (window.length == 0 && pos >= object.size() - TAIL && length <= TAIL) {
                // the footer's length, then the footer: the file's tail, fetched once
                windowStart = Math.max(0, object.size() - TAIL);
                window = new byte[(int) (object.size() - windowStart)];
                object.read(windowStart, window, 0, window.length);
                System.arraycopy(window, (int) (pos - windowStart), bytes, at, length);
            } else {
                object.read(pos, bytes, at, length);
            }
            pos += length;
        }

        @Override
        public int read(ByteBuffer buffer) throws IOException {
            int n = (int) Math.min(buffer.remaining(), object.size() - pos);
            if (n <= 0) {
                return buffer.remaining() == 0 ? 0 : -1;
            }
            copyInto(buffer, n);
            return n;
        }

        @Override
        public void readFully(ByteBuffer buffer) throws IOException {
            copyInto(buffer, buffer.remaining());
        }

        private void copyInto(ByteBuffer buffer, int n) throws IOException {
            if (buffer.hasArray()) {
                readFully(buffer.array(), buffer.arrayOffset() + buffer.position(), n);
                buffer.position(buffer.position() + n);
            } else {
                byte[] bytes = new byte[n];
                readFully(bytes, 0, n);
                buffer.put(bytes);
            }
        }
    }
}
