package io.erasure.audit.cassandra;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.model.check.Require;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The MD5 a Medusa {@code manifest.json} lists for one stored object, and a stream that checks an object's bytes
 * against it as they are read. Medusa records what the storage reported at upload: a plain MD5, as hex or base64,
 * or for a multipart S3 upload its ETag, {@code md5(md5(part 1) ‖ … ‖ md5(part N))-N} in hex, with parts of
 * {@value #PART_SIZE_MIB} MiB (the AWS CLI's default chunk size, which Medusa's uploads use).
 *
 * <p>A manifest MD5 of no known form, or a multipart one whose part count does not fit the object's size at that
 * part size, cannot be checked and is refused: nothing unchecked is read.
 */
public final class MedusaMd5 implements ObjectCheck {

    static final int PART_SIZE_MIB = 8;
    static final long PART_SIZE = PART_SIZE_MIB * 1024L * 1024L;

    private static final Pattern HEX = Pattern.compile("[0-9a-f]{32}");
    private static final Pattern MULTIPART = Pattern.compile("([0-9a-f]{32})-([1-9][0-9]{0,4})");
    private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/]{22}==");

    private final String object;
    private final byte[] digest;
    private final int parts;
    private final long size;

    private MedusaMd5(String object, byte[] digest, int parts, long size) {
        this.object = object;
        this.digest = digest;
        this.parts = parts;
        this.size = size;
    }

    /**
     * @param object the object's key, for messages
     * @param md5    the manifest's {@code MD5} of it
     * @param size   the manifest's {@code size} of it
     * @throws BackupIntegrityException if {@code md5} is of no form that can be checked against {@code size}
     */
    public static MedusaMd5 of(String object, String md5, long size) {
        Require.nonNegative("size of " + object, size);
        String value = md5 == null ? "" : md5.trim();
        String lower = value.toLowerCase(Locale.ROOT);
        Matcher multipart = MULTIPART.matcher(lower);
        if (multipart.matches()) {
            int parts = Integer.parseInt(multipart.group(2));
            long expectedParts = Math.max(1, (size + PART_SIZE - 1) / PART_SIZE);
            if (parts != expectedParts) {
                throw new BackupIntegrityException("object " + object + " has the multipart MD5 " + value + " of "
                        + parts + " parts, but " + size + " bytes make " + expectedParts + " parts of "
                        + PART_SIZE_MIB + " MiB: it was uploaded with another part size and cannot be checked");
            }
            return new MedusaMd5(object, HexFormat.of().parseHex(multipart.group(1)), parts, size);
        }
        if (HEX.matcher(lower).matches()) {
            return new MedusaMd5(object, HexFormat.of().parseHex(lower), 0, size);
        }
        if (BASE64.matcher(value).matches()) {
            return new MedusaMd5(object, Base64.getDecoder().decode(value), 0, size);
        }
        throw new BackupIntegrityException("object " + object + " has the MD5 '" + value + "' in its manifest, which"
                + " is neither hex, base64 nor a multipart ETag ('<hex>-<parts>'): it cannot be checked");
    }

    /** A stream over {@code in} hashing the object as it is read; {@link Checked#verify} at its end. */
    @Override
    public Checked check(InputStream in) {
        return new Checked(in);
    }

    /** The object's bytes, hashed as they pass. */
    public final class Checked extends ObjectCheck.Checked {
        private final MessageDigest whole = md5();
        private final MessageDigest part = md5();
        private final MessageDigest ofParts = md5();
        private long inPart;

        Checked(InputStream in) {
            super(in);
        }

        @Override
        protected void observe(byte[] buffer, int offset, int length) {
            if (parts == 0) {
                whole.update(buffer, offset, length);
                return;
            }
            int at = offset;
            int left = length;
            while (left > 0) {
                int take = (int) Math.min(left, PART_SIZE - inPart);
                part.update(buffer, at, take);
                inPart += take;
                at += take;
                left -= take;
                if (inPart == PART_SIZE) {
                    ofParts.update(part.digest());
                    inPart = 0;
                }
            }
        }

        /**
         * Reads the rest and checks the size and the MD5.
         *
         * @throws BackupIntegrityException naming the object if either differs from the manifest
         */
        @Override
        public void verify() throws IOException {
            drain();
            long read = bytesRead();
            if (read != size) {
                throw new BackupIntegrityException("object " + object + " has " + read + " bytes but the Medusa"
                        + " manifest says " + size + "; it is truncated or was replaced after the backup");
            }
            byte[] actual;
            if (parts == 0) {
                actual = whole.digest();
            } else {
                if (inPart > 0 || read == 0) {
                    ofParts.update(part.digest());
                }
                actual = ofParts.digest();
            }
            if (!MessageDigest.isEqual(actual, digest)) {
                throw new BackupIntegrityException("checksum mismatch for object " + object + ": the Medusa manifest"
                        + " says MD5 " + HexFormat.of().formatHex(digest) + (parts > 0 ? "-" + parts : "")
                        + " but its " + read + " bytes hash to "
                        + HexFormat.of().formatHex(actual)
                        + (parts > 0 ? "-" + parts : "") + "; the object is corrupt or was replaced after the backup");
            }
        }
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides MD5", e);
        }
    }
}
