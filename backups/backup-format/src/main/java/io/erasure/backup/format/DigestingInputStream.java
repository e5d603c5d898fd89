package io.erasure.backup.format;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A stream that hands every byte read through it, skipped ones too, to {@link #observe}, so an object is checked
 * while it streams instead of being downloaded twice. Subclasses compare at the end, after {@link #drain}.
 */
public abstract class DigestingInputStream extends FilterInputStream {

    private final byte[] drain = new byte[PartCompression.BUFFER_SIZE];
    private final byte[] single = new byte[1];
    private long bytes;

    protected DigestingInputStream(InputStream in) {
        super(in);
    }

    /** Called with every run of bytes read, in order. */
    protected abstract void observe(byte[] buffer, int offset, int length);

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            single[0] = (byte) b;
            observe(single, 0, 1);
            bytes++;
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = in.read(buffer, offset, length);
        if (n > 0) {
            observe(buffer, offset, n);
            bytes += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // skipped bytes must still be observed
        long skipped = 0;
        while (skipped < n) {
            int r = read(drain, 0, (int) Math.min(drain.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    public long bytesRead() {
        return bytes;
    }

    /** Reads the rest of the stream: the whole object counts, whatever its consumer left unread. */
    protected void drain() throws IOException {
        while (read(drain, 0, drain.length) >= 0) {
            // observed as it passes
        }
    }
}
