package io.erasure.controlplane.receipt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ReceiptSignerTest {

    private static final String KEY = "local-only-receipt-signing-key-0123456789abcdef";
    private static final byte[] RECEIPT = "{\"runId\":\"r-1\",\"deleted\":10}".getBytes(StandardCharsets.UTF_8);

    private final ReceiptSigner signer = new ReceiptSigner("local-1", KEY);

    @Test
    void signsLikeOpensslHmacWithTheKeyAsText() {
        // printf '{"runId":"r-1","deleted":10}' > r.json; openssl dgst -sha256 -hmac "$KEY" r.json
        assertThat(signer.sign(RECEIPT))
                .isEqualTo(new ReceiptSignature(
                        "HmacSHA256", "local-1", "785eeb4cf4c7443a6709485b9c27543b8db2a4864effe168bc76ebf591fa4d92"));
    }

    @Test
    void aSignedReceiptVerifies() {
        assertThat(signer.verify(RECEIPT, signer.sign(RECEIPT)))
                .isEqualTo(new ReceiptVerdict(
                        true, "signed by this platform with key 'local-1' and unchanged since", "local-1"));
    }

    @Test
    void oneChangedByteOrAnEditedCountDoesNotVerify() {
        ReceiptSignature signature = signer.sign(RECEIPT);
        byte[] flipped = RECEIPT.clone();
        flipped[3] ^= 1;
        byte[] edited = "{\"runId\":\"r-1\",\"deleted\":11}".getBytes(StandardCharsets.UTF_8);

        assertThat(signer.verify(flipped, signature).valid()).isFalse();
        assertThat(signer.verify(edited, signature)).satisfies(verdict -> {
            assertThat(verdict.valid()).isFalse();
            assertThat(verdict.reason()).contains("does not match these bytes");
        });
    }

    @Test
    void aSignatureMadeWithAnotherKeyDoesNotVerify() {
        ReceiptSignature forged = new ReceiptSigner("local-1", KEY.replace('0', '1')).sign(RECEIPT);
        assertThat(signer.verify(RECEIPT, forged).valid()).isFalse();

        ReceiptSignature otherKeyId = new ReceiptSigner("receipts-2027", KEY).sign(RECEIPT);
        assertThat(signer.verify(RECEIPT, otherKeyId)).satisfies(verdict -> {
            assertThat(verdict.valid()).isFalse();
            assertThat(verdict.reason())
                    .contains("signed with key 'receipts-2027'")
                    .contains("holds key 'local-1'");
        });
    }

    @Test
    void malformedSignaturesAreInvalidWithTheReason() {
        String hex = signer.sign(RECEIPT).signature();
        assertThat(signer.verify(RECEIPT, new ReceiptSignature("HmacSHA1", "local-1", hex))
                        .reason())
                .contains("alg 'HmacSHA1'");
        assertThat(signer.verify(RECEIPT, new ReceiptSignature(null, null, "xyz"))
                        .reason())
                .contains("64 hex characters");
        assertThat(signer.verify(RECEIPT, null).valid()).isFalse();
        // the bare hex, as openssl prints it, is accepted too
        assertThat(signer.verify(RECEIPT, new ReceiptSignature(null, null, hex.toUpperCase()))
                        .valid())
                .isTrue();
    }

    @Test
    void aMissingOrShortKeyIsRefusedWithTheFix() {
        assertThatThrownBy(() -> new ReceiptSigner("local-1", null))
                .hasMessageContaining("erasure.receipts.signing-key is required")
                .hasMessageContaining("openssl rand -hex 32");
        assertThatThrownBy(() -> new ReceiptSigner("local-1", "short")).hasMessageContaining("at least 32 characters");
        assertThatThrownBy(() -> new ReceiptSigner("", KEY))
                .hasMessageContaining("erasure.receipts.key-id is required");
        assertThat(new ReceiptSigner("local-1", KEY).toString()).doesNotContain(KEY);
    }
}
