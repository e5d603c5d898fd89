package io.erasure.controlplane.receipt;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param signingKey the secret receipts are signed with ({@code erasure.receipts.signing-key}): at least 32
 *                   characters, used as its UTF-8 bytes; required, from a secret store in every real deployment
 * @param keyId      names that key in each signature ({@code erasure.receipts.key-id}), so keys can be rotated
 * @see ReceiptSigner which refuses a missing or short key at startup, with the fix
 */
@ConfigurationProperties("erasure.receipts")
public record ReceiptProperties(String signingKey, String keyId) {

    @Override
    public String toString() {
        return "ReceiptProperties[keyId=" + keyId + ", signingKey=***]";
    }
}
