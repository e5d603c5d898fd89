package io.erasure.backup.format;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Computes the SHA-256 of everything read through it, so a part is verified while it is streamed
 * instead of being downloaded twice. {@link #verify} drains what the decompressor left unread and
 * compares; nothing read from a part may be trusted before it returns.
 */
public final class ChecksummedInputStream extends DigestingInputStream {

    private final MessageDigest digest = Sha256.newDigest();

    public ChecksummedInputStream(InputStream in) {
        super(in);
    }

    @Override
    protected void observe(byte[] buffer, int offset, int length) {
        digest.update(buffer, offset, length);
    }

    /**
     * Reads the rest of the stream and checks its SHA-256 against {@code expectedSha256}.
     *
     * @throws BackupIntegrityException naming {@code partName} if they differ
     */
    public void verify(String partName, String expectedSha256) throws IOException {
        // bytes after the compressed content still belong to the file
        drain();
        String actual = HexFormat.of().formatHex(digest.digest());
        if (!actual.equals(expectedSha256)) {
            throw new BackupIntegrityException("checksum mismatch for part " + partName + ": the manifest says SHA-256 "
                    + expectedSha256 + " but the " + bytesRead() + " bytes read hash to " + actual
                    + "; the part is corrupt or was replaced after the manifest was written");
        }
    }
}
