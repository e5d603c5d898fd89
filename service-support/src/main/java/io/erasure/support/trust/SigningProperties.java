package io.erasure.support.trust;

import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.SigningKey;
import io.erasure.model.trust.TrustedKeys;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code erasure.signing.*}: this service's Ed25519 key, if it signs what it publishes (control plane, deletion,
 * recovery: tasks and signals; audit, validation, deletion: their results on {@code erasure.run.events}), and the
 * public keys it trusts, each for what it may authorize or seal (deletion: tasks and signals; the control plane: run
 * events, {@code AUDIT_RESULT}, {@code VALIDATION_RESULT}, {@code BATCH_RESULT}).
 *
 * <pre>
 * erasure.signing.key-id: control-plane-1
 * erasure.signing.private-key: base64 PKCS#8     (a secret: never in a config map)
 * erasure.signing.trusted-keys.control-plane-1.public-key: base64 X.509
 * erasure.signing.trusted-keys.control-plane-1.grants: RUN, FORWARD, CONTROL
 * </pre>
 *
 * The jars hold LOCAL ONLY pairs for tests and {@code ./erasure-local}, whose ids end in {@code -local}; their private
 * halves are in the repository, so they are used only while {@code erasure.signing.local-keys} is true (the jars'
 * application.yml; Helm sets it false): otherwise a signer with such a key refuses to start, and such trusted keys are
 * left out, naming the properties to set.
 */
@ConfigurationProperties("erasure.signing")
public record SigningProperties(String keyId, String privateKey, Map<String, Trusted> trustedKeys, Boolean localKeys) {

    /** The suffix of the LOCAL ONLY key ids of the jars' application.yml. */
    public static final String LOCAL_SUFFIX = "-local";

    /** One trusted public key and what it may sign. */
    public record Trusted(String publicKey, Set<Authorization.Kind> grants) {}

    public SigningProperties {
        trustedKeys = trustedKeys == null ? Map.of() : Map.copyOf(new LinkedHashMap<>(trustedKeys));
    }

    /** This service's signing key; fails naming the properties to set when it has none, or only a LOCAL ONLY one. */
    public SigningKey signingKey() {
        if (keyId != null && keyId.endsWith(LOCAL_SUFFIX) && !Boolean.TRUE.equals(localKeys)) {
            throw new IllegalArgumentException("erasure.signing.key-id '" + keyId + "' is a LOCAL ONLY key of the jar's"
                    + " application.yml, whose private half is public: set ERASURE_SIGNING_KEYID and"
                    + " ERASURE_SIGNING_PRIVATEKEY (openssl genpkey -algorithm ed25519 -outform DER | base64 -w0) from"
                    + " a secret store, or erasure.signing.local-keys=true on a machine of your own");
        }
        return SigningKey.of(keyId, privateKey);
    }

    /** The trusted keys; fails naming the property of a key that cannot be read or is granted nothing. */
    public TrustedKeys trusted() {
        Map<String, TrustedKeys.Trusted> keys = new LinkedHashMap<>();
        trustedKeys.forEach((id, trusted) -> {
            if (id.endsWith(LOCAL_SUFFIX) && !Boolean.TRUE.equals(localKeys)) {
                return; // anyone holds its private half: trusted only while erasure.signing.local-keys is true
            }
            String property = "erasure.signing.trusted-keys." + id;
            if (trusted.grants() == null || trusted.grants().isEmpty()) {
                throw new IllegalArgumentException(property + ".grants is required: what the key may sign, some of "
                        + Arrays.toString(Authorization.Kind.values()));
            }
            keys.put(
                    id,
                    new TrustedKeys.Trusted(
                            TrustedKeys.publicKey(property + ".public-key", trusted.publicKey()), trusted.grants()));
        });
        return TrustedKeys.of(keys);
    }
}
