package io.erasure.model.trust;

import io.erasure.model.check.Names;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * A service's Ed25519 private key, with the id its verifiers know its public key by ({@link TrustedKeys}). The services
 * that decide what may be deleted hold one: the control plane (runs, forward deletion, control signals), the deletion
 * service (the copy and lookup tasks it derives) and recovery (re-applications); and so do the producers of
 * {@code erasure.run.events}, whose results the control plane decides on: audit, validation and deletion seal them
 * ({@link EventSeals}). Thread-safe.
 */
public final class SigningKey {

    private final String keyId;
    private final PrivateKey key;

    private SigningKey(String keyId, PrivateKey key) {
        this.keyId = keyId;
        this.key = key;
    }

    /**
     * The key from its base64 PKCS#8 form ({@code erasure.signing.private-key}); fails naming the property and how to
     * make a key when it is missing or not an Ed25519 private key.
     */
    public static SigningKey of(String keyId, String base64Pkcs8) {
        if (keyId == null || keyId.isBlank()) {
            throw new IllegalArgumentException(
                    "erasure.signing.key-id is required: the id verifiers know this service's"
                            + " public key by (erasure.signing.trusted-keys.<key-id>)");
        }
        Names.opaqueId("erasure.signing.key-id", keyId);
        if (base64Pkcs8 == null || base64Pkcs8.isBlank()) {
            throw new IllegalArgumentException("erasure.signing.private-key is required: an Ed25519 private key, base64"
                    + " PKCS#8 (openssl genpkey -algorithm ed25519 -outform DER | base64 -w0);"
                    + " give its public key to the consumers as erasure.signing.trusted-keys." + keyId + ".public-key");
        }
        try {
            PrivateKey key = KeyFactory.getInstance("Ed25519")
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64Pkcs8.strip())));
            return new SigningKey(keyId, key);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "erasure.signing.private-key is not an Ed25519 private key in base64 PKCS#8"
                            + " (openssl genpkey -algorithm ed25519 -outform DER | base64 -w0): " + e.getMessage(),
                    e);
        }
    }

    public String keyId() {
        return keyId;
    }

    /**
     * {@code unsigned} signed with this key: its key id set and a signature over {@link Authorization#signedContent()}.
     */
    public Authorization sign(Authorization unsigned) {
        Authorization withKey = unsigned.signedWith(keyId, null);
        return withKey.signedWith(keyId, sign(withKey.signedContent()));
    }

    /** A base64 Ed25519 signature of {@code content}. */
    public String sign(byte[] content) {
        try {
            Signature signature = Signature.getInstance("Ed25519");
            signature.initSign(key);
            signature.update(content);
            return Base64.getEncoder().encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(
                    "Ed25519 signing failed (every Java 15+ runtime provides it): " + e.getMessage(), e);
        }
    }
}
