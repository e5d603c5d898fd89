package io.erasure.controlplane.receipt;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs receipts with HMAC-SHA256 over their exact bytes, and checks such signatures.
 *
 * <p>The key is the UTF-8 bytes of the configured text, as {@code openssl dgst -sha256 -hmac "$KEY"}
 * uses it, so anyone holding the key verifies a receipt with that one command. Thread-safe.
 */
public final class ReceiptSigner {

    public static final String ALGORITHM = "HmacSHA256";
    /** Shorter keys weaken HMAC-SHA256 below its 256-bit strength. */
    public static final int MIN_KEY_LENGTH = 32;

    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern HEX_SHA256 = Pattern.compile("[0-9a-f]{64}");

    private final String keyId;
    private final SecretKeySpec key;

    public ReceiptSigner(String keyId, String signingKey) {
        if (keyId == null || !KEY_ID.matcher(keyId).matches()) {
            throw new IllegalArgumentException(
                    "erasure.receipts.key-id is required: 1 to 64 letters, digits, '.', '_' or"
                            + " '-' naming the signing key (e.g. receipts-2026-1), so a receipt says which key signed"
                            + " it");
        }
        if (signingKey == null || signingKey.length() < MIN_KEY_LENGTH) {
            throw new IllegalArgumentException("erasure.receipts.signing-key is required: a secret of at least "
                    + MIN_KEY_LENGTH + " characters (openssl rand -hex 32), set from a secret store"
                    + " (ERASURE_RECEIPTS_SIGNINGKEY)");
        }
        this.keyId = keyId;
        this.key = new SecretKeySpec(signingKey.getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    public String keyId() {
        return keyId;
    }

    public ReceiptSignature sign(byte[] receipt) {
        return new ReceiptSignature(ALGORITHM, keyId, HexFormat.of().formatHex(mac(receipt)));
    }

    /** Checks {@code signature} against the exact {@code receipt} bytes; the verdict says what does not match. */
    public ReceiptVerdict verify(byte[] receipt, ReceiptSignature signature) {
        if (signature == null || signature.signature() == null) {
            return ReceiptVerdict.invalid(
                    null,
                    "no signature given: send the receipt's signature document"
                            + " {\"alg\",\"keyId\",\"signature\"} as served by /api/runs/{id}/receipt/signature");
        }
        if (signature.alg() != null && !ALGORITHM.equals(signature.alg())) {
            return ReceiptVerdict.invalid(
                    signature.keyId(),
                    "alg '" + signature.alg() + "' is not " + ALGORITHM
                            + ", the only algorithm receipts are signed with");
        }
        if (signature.keyId() != null && !keyId.equals(signature.keyId())) {
            return ReceiptVerdict.invalid(
                    signature.keyId(),
                    "signed with key '" + signature.keyId()
                            + "', but this platform holds key '" + keyId + "'; verify it where key '"
                            + signature.keyId()
                            + "' is configured");
        }
        String hex = signature.signature().trim().toLowerCase();
        if (!HEX_SHA256.matcher(hex).matches()) {
            return ReceiptVerdict.invalid(
                    keyId, "signature must be 64 hex characters (HMAC-SHA256), got " + hex.length() + " characters");
        }
        if (!MessageDigest.isEqual(mac(receipt), HexFormat.of().parseHex(hex))) {
            return ReceiptVerdict.invalid(
                    keyId,
                    "the signature does not match these bytes: the receipt was changed"
                            + " after it was signed (even one byte or whitespace), or it was signed with another key");
        }
        return ReceiptVerdict.valid(keyId);
    }

    private byte[] mac(byte[] receipt) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(receipt);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every Java runtime provides " + ALGORITHM, e);
        }
    }

    @Override
    public String toString() {
        return "ReceiptSigner[keyId=" + keyId + ", key=***]";
    }
}
