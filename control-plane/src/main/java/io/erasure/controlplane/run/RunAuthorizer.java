package io.erasure.controlplane.run;

import io.erasure.controlplane.refusal.Refusal;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.SigningKey;
import io.erasure.support.trust.SigningProperties;
import io.erasure.support.trust.SpecDigest;
import java.time.Clock;
import java.util.Map;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Signs the control plane's decision that a run may delete ({@link Authorization.Kind#RUN}): the run, its dataset, the
 * digest of the spec it froze and of the final-set manifest validation reported, the cut-off, the basis and who
 * decided. The deletion service trusts nothing else about a run's task: without this signature, or with a task whose
 * spec, cut-off or keys differ from what it covers, the task deletes nothing. Starting without
 * {@code erasure.signing.private-key} fails, naming the property.
 */
@Component
public class RunAuthorizer {

    /** Where validation's reported final-set digest is kept among the run's counts ({@code counts.validation}). */
    static final String FINAL_SET_DIGEST = "finalSetDigest";

    private final SigningKey key;
    private final Clock clock;

    public RunAuthorizer(SigningProperties signing, Clock clock) {
        this.key = signing.signingKey();
        this.clock = clock;
        if (key.keyId().endsWith("-local")) {
            LoggerFactory.getLogger(RunAuthorizer.class)
                    .warn(
                            "run authorizations are signed with the LOCAL ONLY key '{}'"
                                    + " of application.yml; set ERASURE_SIGNING_KEYID and ERASURE_SIGNING_PRIVATEKEY"
                                    + " from a secret store in every real deployment",
                            key.keyId());
        }
    }

    /** The signed command authorizing {@code run} on {@code basis}, decided by {@code authorizedBy}. */
    public DeletionAuthorized authorize(RunRecord run, DeletionAuthorized.Basis basis, String authorizedBy) {
        Object validation = run.counts() == null ? null : run.counts().get("validation");
        Object digest = validation instanceof Map<?, ?> counts ? counts.get(FINAL_SET_DIGEST) : null;
        if (!(digest instanceof String finalSetDigest) || finalSetDigest.isBlank()) {
            throw Refusal.conflict("run " + run.id() + " has no final-set digest: the validation-service that"
                    + " validated it predates signed authorizations, so its tasks could not be checked; upgrade"
                    + " validation-service and start a new run");
        }
        if (run.cutoffMicros() == null) {
            throw Refusal.conflict("run " + run.id() + " has no cut-off yet: it was never audited, so there is"
                    + " nothing to authorize");
        }
        Authorization signed = key.sign(Authorization.unsigned(
                Authorization.Kind.RUN,
                run.id(),
                run.dataset(),
                SpecDigest.of(run.spec()),
                finalSetDigest,
                run.cutoffMicros(),
                basis.name(),
                authorizedBy,
                clock.instant()));
        return new DeletionAuthorized(run.dataset(), basis, authorizedBy, signed);
    }
}
