package io.erasure.deletionlog.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM for record payloads and for wrapping dataset keys under the master key. A ciphertext is
 * {@code iv(12) || ciphertext || tag(16)}; the associated data binds it to its place (the record id, or
 * the dataset and key version), so a payload copied onto another record does not decrypt.
 */
public final class PayloadCipher {

    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private PayloadCipher() {}

    /** The master key from its configured base64 form (32 bytes). */
    public static SecretKey masterKey(String base64) {
        if (base64 == null || base64.isBlank()) {
            throw new IllegalArgumentException("erasure.deletion-log.master-key is required: 32 random bytes in base64,"
                    + " e.g. from 'openssl rand -base64 32'");
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("erasure.deletion-log.master-key is not base64: " + e.getMessage());
        }
        if (bytes.length != 32) {
            throw new IllegalArgumentException(
                    "erasure.deletion-log.master-key must decode to 32 bytes (AES-256), got " + bytes.length);
        }
        return new SecretKeySpec(bytes, "AES");
    }

    public static SecretKey newDataKey() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return new SecretKeySpec(bytes, "AES");
    }

    public static SecretKey dataKey(byte[] raw) {
        return new SecretKeySpec(raw, "AES");
    }

    public static byte[] encrypt(SecretKey key, byte[] plain, String associatedData) {
        byte[] iv = new byte[IV_BYTES];
        RANDOM.nextBytes(iv);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plain);
            return ByteBuffer.allocate(IV_BYTES + sealed.length)
                    .put(iv)
                    .put(sealed)
                    .array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM encryption failed: " + e.getMessage(), e);
        }
    }

    /**
     * The plain bytes; {@link UnreadablePayload} if the key is not the one it was sealed with or the data was changed.
     */
    public static byte[] decrypt(SecretKey key, byte[] sealed, String associatedData) {
        if (sealed == null || sealed.length < IV_BYTES + TAG_BITS / 8) {
            throw new UnreadablePayload("payload too short to be AES-GCM");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, IV_BYTES));
            cipher.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(Arrays.copyOfRange(sealed, IV_BYTES, sealed.length));
        } catch (AEADBadTagException e) {
            throw new UnreadablePayload("payload does not decrypt with this key (wrong key or altered data)");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM decryption failed: " + e.getMessage(), e);
        }
    }

    /** A payload that cannot be decrypted: its key was purged, or it is not what was written. */
    public static final class UnreadablePayload extends RuntimeException {
        public UnreadablePayload(String message) {
            super(message);
        }
    }
}
