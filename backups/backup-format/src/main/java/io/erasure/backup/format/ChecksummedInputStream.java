package io.erasure.backup.format;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Computes the SHA-256 of everything read through it, so a part is verified while it is streamed
 * instead of being downloaded twice. {@link #verify} drains what the decompressor left unread and
 * compares; nothing read from a part may be trusted before it returns.
 */
public final class ChecksummedInputStream extends FilterInputStream {

    private final MessageDigest digest = Sha256.newDigest();
    private final byte[] drain = new byte[PartCompression.BUFFER_SIZE];
    private long bytes;

    public ChecksummedInputStream(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            digest.update((byte) b);
            bytes++;
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = in.read(buffer, offset, length);
        if (n > 0) {
            digest.update(buffer, offset, n);
            bytes += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // skipped bytes must still be hashed
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

    /**
     * Reads the rest of the stream and checks its SHA-256 against {@code expectedSha256}.
     *
     * @throws BackupIntegrityException naming {@code partName} if they differ
     */
    public void verify(String partName, String expectedSha256) throws IOException {
        while (read(drain, 0, drain.length) >= 0) {
            // bytes after the compressed content still belong to the file
        }
        String actual = HexFormat.of().formatHex(digest.digest());
        if (!actual.equals(expectedSha256)) {
            throw new BackupIntegrityException("checksum mismatch for part " + partName + ": the manifest says SHA-256 "
                    + expectedSha256 + " but the " + bytes + " bytes read hash to " + actual
                    + "; the part is corrupt or was replaced after the manifest was written");
        }
    }
}
