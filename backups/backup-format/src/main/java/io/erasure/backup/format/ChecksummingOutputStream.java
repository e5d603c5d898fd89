package io.erasure.backup.format;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;

/** Computes the SHA-256 and size of the bytes written through it (the stored, compressed bytes of a part). */
public final class ChecksummingOutputStream extends FilterOutputStream {

    private final MessageDigest digest = Sha256.newDigest();
    private long bytes;

    public ChecksummingOutputStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        digest.update((byte) b);
        bytes++;
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        out.write(buffer, offset, length);
        digest.update(buffer, offset, length);
        bytes += length;
    }

    public long bytesWritten() {
        return bytes;
    }

    /** The lower-case hex SHA-256 of everything written; call once, after the last write. */
    public String sha256Hex() {
        return HexFormat.of().formatHex(digest.digest());
    }
}
