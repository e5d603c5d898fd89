package io.erasure.audit.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.backup.format.BackupIntegrityException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MedusaMd5Test {

    private static final byte[] BYTES = bytes(100_000);

    @Test
    void aPlainMd5InHexOrBase64IsCheckedAsTheObjectStreams() throws Exception {
        byte[] md5 = MessageDigest.getInstance("MD5").digest(BYTES);

        assertThatCode(() -> verify(BYTES, HexFormat.of().formatHex(md5))).doesNotThrowAnyException();
        assertThatCode(() -> verify(BYTES, HexFormat.of().formatHex(md5).toUpperCase()))
                .doesNotThrowAnyException();
        assertThatCode(() -> verify(BYTES, Base64.getEncoder().encodeToString(md5)))
                .doesNotThrowAnyException();
    }

    @Test
    void aChangedByteIsAMismatchNamingTheObject() throws Exception {
        String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(BYTES));
        byte[] changed = BYTES.clone();
        changed[77_777] ^= 0x01;

        assertThatThrownBy(() -> verify(changed, md5))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith("checksum mismatch for object node1/b1/data/ks/t/nb-1-big-Data.db: the Medusa"
                        + " manifest says MD5 " + md5);
    }

    @Test
    void aTruncatedObjectIsRefusedBeforeItsChecksumIsCompared() throws Exception {
        String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(BYTES));
        MedusaMd5.Checked checked = MedusaMd5.of(KEY, md5, BYTES.length + 1L).check(new ByteArrayInputStream(BYTES));

        assertThatThrownBy(checked::verify)
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("object " + KEY + " has 100000 bytes but the Medusa manifest says 100001; it is"
                        + " truncated or was replaced after the backup");
    }

    @Test
    void anMd5ThatCannotBeCheckedIsRefused() {
        assertThatThrownBy(() -> MedusaMd5.of(KEY, "not-an-md5", 10))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("neither hex, base64 nor a multipart ETag");
        // 20 MiB in 8 MiB parts is 3 parts, not 2: another part size, which cannot be checked
        assertThatThrownBy(() -> MedusaMd5.of(KEY, "0123456789abcdef0123456789abcdef-2", 20L << 20))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("uploaded with another part size");
    }

    static final String KEY = "node1/b1/data/ks/t/nb-1-big-Data.db";

    private static void verify(byte[] bytes, String md5) throws IOException {
        MedusaMd5.Checked checked = MedusaMd5.of(KEY, md5, bytes.length).check(new ByteArrayInputStream(bytes));
        byte[] buffer = new byte[4096];
        while (checked.read(buffer, 0, 1000) >= 0) {
            // read in small steps, as a consumer would
        }
        checked.verify();
        assertThat(checked.available()).isZero();
    }

    static byte[] bytes(int n) {
        byte[] bytes = new byte[n];
        new Random(7).nextBytes(bytes);
        return bytes;
    }
}
