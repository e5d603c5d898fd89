package io.erasure.deletionlog.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;

class PayloadCipherTest {

    private static final byte[] ROW = "{\"name\":\"alice\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void aPayloadDecryptsOnlyWithItsKeyAndInItsPlace() {
        SecretKey key = PayloadCipher.newDataKey();
        byte[] sealed = PayloadCipher.encrypt(key, ROW, "record-1");

        assertThat(PayloadCipher.decrypt(key, sealed, "record-1")).isEqualTo(ROW);
        assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("alice");
        assertThatThrownBy(() -> PayloadCipher.decrypt(PayloadCipher.newDataKey(), sealed, "record-1"))
                .isInstanceOf(PayloadCipher.UnreadablePayload.class);
        assertThatThrownBy(() -> PayloadCipher.decrypt(key, sealed, "record-2"))
                .as("a payload copied onto another record")
                .isInstanceOf(PayloadCipher.UnreadablePayload.class);
    }

    @Test
    void twoEncryptionsOfOneRowDiffer() {
        SecretKey key = PayloadCipher.newDataKey();

        assertThat(PayloadCipher.encrypt(key, ROW, "r")).isNotEqualTo(PayloadCipher.encrypt(key, ROW, "r"));
    }

    @Test
    void theMasterKeyMustBe32BytesOfBase64() {
        assertThatThrownBy(() -> PayloadCipher.masterKey(""))
                .hasMessageContaining("erasure.deletion-log.master-key is required");
        assertThatThrownBy(() -> PayloadCipher.masterKey("not base64!")).hasMessageContaining("not base64");
        assertThatThrownBy(() -> PayloadCipher.masterKey(Base64.getEncoder().encodeToString(new byte[16])))
                .hasMessageContaining("32 bytes");
        assertThat(PayloadCipher.masterKey(Base64.getEncoder().encodeToString(new byte[32]))
                        .getEncoded())
                .hasSize(32);
    }

    @Test
    void aCursorSurvivesItsRoundTripAndAForgedOneIsRefused() {
        Cursor cursor = new Cursor(3, ByteBuffer.wrap(new byte[] {1, 2, 3}));

        Cursor parsed = Cursor.parse(cursor.render());

        assertThat(parsed.part()).isEqualTo(3);
        assertThat(parsed.pagingState()).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        assertThat(Cursor.parse(null)).isEqualTo(Cursor.START);
        assertThatThrownBy(() -> Cursor.parse("garbage"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nextCursor");
    }
}
