package io.erasure.audit.cassandra;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.DigestingInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;

/** How a stored object's bytes are checked as they stream: Medusa's MD5, or a snapshot's size and CRC32 digest. */
interface ObjectCheck {

    /** A stream over {@code in} that checks the object as it is read; {@link Checked#verify} at its end. */
    Checked check(InputStream in);

    /** The object's bytes, checked as they pass. */
    abstract class Checked extends DigestingInputStream {

        protected Checked(InputStream in) {
            super(in);
        }

        /**
         * Reads the rest and checks what was read.
         *
         * @throws BackupIntegrityException naming the object if it differs from what was expected
         */
        public abstract void verify() throws IOException;
    }

    /** A snapshot's component: its listed size only. */
    static ObjectCheck size(String key, long size) {
        return new SnapshotObject(key, size, null);
    }

    /** A snapshot's {@code Data.db}: its listed size, and the CRC32 its SSTable's {@code Digest.crc32} holds. */
    static ObjectCheck crc32(String key, long size, long crc32) {
        return new SnapshotObject(key, size, crc32);
    }

    /** An object of a {@code nodetool snapshot} upload, which no manifest sums. */
    record SnapshotObject(String key, long size, @Nullable Long crc32) implements ObjectCheck {

        @Override
        public Checked check(InputStream in) {
            CRC32 crc = new CRC32();
            return new Checked(in) {
                @Override
                protected void observe(byte[] buffer, int offset, int length) {
                    if (crc32 != null) {
                        crc.update(buffer, offset, length);
                    }
                }

                @Override
                public void verify() throws IOException {
                    drain();
                    if (bytesRead() != size) {
                        throw new BackupIntegrityException("object " + key + " has " + bytesRead() + " bytes but was"
                                + " listed with " + size + "; it was replaced while the audit read the snapshot");
                    }
                    if (crc32 != null && crc.getValue() != crc32) {
                        throw new BackupIntegrityException("checksum mismatch for object " + key + ": its"
                                + " Digest.crc32 says CRC32 " + crc32 + " but its " + size + " bytes sum to "
                                + crc.getValue() + "; the object is corrupt or was replaced after the snapshot");
                    }
                }
            };
        }
    }
}
