package io.erasure.support.trust;

import io.erasure.model.trust.SigningKey;
import org.slf4j.LoggerFactory;

/**
 * The key a producer of {@code erasure.run.events} (audit, validation, deletion) seals its results with
 * ({@code EventEnvelope#sealedWith}): the control plane applies no result without a valid seal of a key it trusts for
 * that producer's role ({@code io.erasure.model.trust.EventSeals}).
 */
public final class RunEventSealing {

    private RunEventSealing() {}

    /**
     * This service's key from {@code erasure.signing.*}; fails naming the property to set when there is none (so the
     * service refuses to start rather than publish results nobody applies), and warns while it is a LOCAL ONLY one.
     *
     * @param what what the key seals, for the messages ("audit results")
     */
    public static SigningKey key(SigningProperties signing, String what) {
        SigningKey key;
        try {
            key = signing.signingKey();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "no key to seal " + what + " on erasure.run.events with (the control plane"
                            + " applies no unsealed event): " + e.getMessage(),
                    e);
        }
        if (key.keyId().endsWith(SigningProperties.LOCAL_SUFFIX)) {
            LoggerFactory.getLogger(RunEventSealing.class)
                    .warn(
                            "{} are sealed with the LOCAL ONLY key '{}' of"
                                    + " application-local.yml; set ERASURE_SIGNING_KEYID and ERASURE_SIGNING_PRIVATEKEY"
                                    + " from a secret store in every real deployment",
                            what,
                            key.keyId());
        }
        return key;
    }
}
