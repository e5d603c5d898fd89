package io.erasure.model.trust;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The public keys a consumer trusts ({@code erasure.signing.trusted-keys.<key-id>}), each only for what it is granted:
 * the control plane's key for runs, forward deletion and control signals, the deletion service's for the copy and
 * lookup tasks it derives, recovery's for forward (re-applied) tasks; and, to the control plane, audit's, validation's
 * and deletion's keys for the seals of their results on {@code erasure.run.events} ({@link EventSeals}). A signature by
 * an unknown key, by a key for
 * something it is not granted, or that does not match its content is refused with the reason. Holding these keys
 * lets a service verify, never sign. Thread-safe.
 */
public final class TrustedKeys {

    /** One trusted key and what it may authorize. */
    public record Trusted(PublicKey key, Set<Authorization.Kind> grants) {
        public Trusted {
            // in declaration order, as messages list them
            grants =
                    grants == null || grants.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(grants));
        }
    }

    private final Map<String, Trusted> keys;

    private TrustedKeys(Map<String, Trusted> keys) {
        this.keys = Map.copyOf(keys);
    }

    public static TrustedKeys of(Map<String, Trusted> keys) {
        return new TrustedKeys(keys);
    }

    /** A public key from its base64 X.509 form; {@code property} names where it was configured. */
    public static PublicKey publicKey(String property, String base64X509) {
        if (base64X509 == null || base64X509.isBlank()) {
            throw new IllegalArgumentException(property + " is required: the signer's Ed25519 public key, base64 X.509"
                    + " (openssl pkey -pubout -outform DER | base64 -w0)");
        }
        try {
            return KeyFactory.getInstance("Ed25519")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64X509.strip())));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    property + " is not an Ed25519 public key in base64 X.509 (openssl pkey"
                            + " -pubout -outform DER | base64 -w0): " + e.getMessage(),
                    e);
        }
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }

    /** The key ids and what each is granted, for logs. */
    public Map<String, Set<Authorization.Kind>> grants() {
        Map<String, Set<Authorization.Kind>> grants = new TreeMap<>();
        keys.forEach((id, trusted) -> grants.put(id, trusted.grants()));
        return grants;
    }

    /** Why {@code authorization} is not a valid signature of a key granted {@code kind}; empty when it is. */
    public Optional<String> refusal(Authorization authorization, Authorization.Kind kind) {
        if (authorization.kind() != kind) {
            return Optional.of(
                    "it carries a " + authorization.kind() + " authorization where a " + kind + " one is needed");
        }
        return refusal(authorization.keyId(), kind, authorization.signedContent(), authorization.signature());
    }

    /**
     * Why {@code signature} is not {@code keyId}'s valid signature of {@code content} for {@code kind}; empty when it
     * is.
     */
    public Optional<String> refusal(
            @Nullable String keyId, Authorization.Kind kind, byte[] content, @Nullable String signature) {
        if (keyId == null || signature == null || signature.isBlank()) {
            return Optional.of("it is not signed");
        }
        Trusted trusted = keys.get(keyId);
        if (trusted == null) {
            return Optional.of(
                    "it is signed by key '" + keyId + "', which is not trusted here (trusted: " + keys.keySet() + ")");
        }
        if (!trusted.grants().contains(kind)) {
            return Optional.of("it is signed by key '" + keyId + "', which is trusted for " + trusted.grants()
                    + " but not for " + kind);
        }
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(trusted.key());
            verifier.update(content);
            if (!verifier.verify(Base64.getDecoder().decode(signature))) {
                return Optional.of("its signature by key '" + keyId + "' does not match its content (altered, or signed"
                        + " by another key)");
            }
            return Optional.empty();
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return Optional.of("its signature by key '" + keyId + "' cannot be read: " + e.getMessage());
        }
    }
}
