package io.erasure.deletion.trust;

import io.erasure.model.task.DeletionTask;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.Authorization.Kind;
import io.erasure.model.trust.TaskAuthority;
import io.erasure.model.trust.TrustedKeys;
import io.erasure.support.trust.SpecDigest;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a task read from {@code erasure.deletion.tasks} may delete anything, from the task alone: anyone who
 * can produce to the topic could otherwise delete any table. A run's task must carry the control plane's signed
 * authorization of that run ({@link Kind#RUN}) for the same dataset, spec (digest), cut-off and priority, and every key
 * of it must be in the part of the authorized final set it names ({@link AuthorizedFinalSets}). A forward or copy
 * task must carry a signature of itself by a key trusted for its kind. Its id must be what its content gives, so that
 * a forged task cannot borrow a genuine task's id (applied once) either.
 *
 * <p>Replays: a genuine task sent again has the id it had and is applied once ({@code processed_batches}); another
 * run's authorization names another run, final set and cut-off and is refused.
 */
public class TaskVerifier {

    /** How far the clocks of validation and the control plane may differ (as for cut-offs). */
    private static final Duration CLOCK_SKEW = Duration.ofMinutes(2);

    private final TrustedKeys trusted;
    private final AuthorizedFinalSets finalSets;
    private final Set<Kind> enforced;
    private final Map<String, Set<Kind>> grants;

    /**
     * {@code enforced}: the kinds of task that must be signed (forward and copy tasks join once their publishers sign).
     */
    public TaskVerifier(TrustedKeys trusted, AuthorizedFinalSets finalSets, Set<Kind> enforced) {
        if (trusted.isEmpty()) {
            throw new IllegalArgumentException(
                    "erasure.signing.trusted-keys is empty, so no task could ever be executed:"
                            + " set erasure.signing.trusted-keys.<key-id>.public-key (the control plane's public key,"
                            + " base64 X.509) and .grants (RUN, FORWARD, CONTROL)");
        }
        this.trusted = trusted;
        this.grants = Map.copyOf(trusted.grants());
        this.finalSets = finalSets;
        this.enforced = enforced.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(enforced));
    }

    /** The kind of authorization {@code task} needs: COPY for a copy's task, RUN for a run's own, FORWARD otherwise. */
    public static Kind kindOf(DeletionTask task) {
        return task.authorizationKind();
    }

    /**
     * Why a run's task is not paced as its signed spec asks: the window is not covered by the signature, so it is held
     * to what the signed data allows. A spec with {@code spreadOver} needs a window (stripping it would delete at full
     * speed), starting no earlier than the authorization was issued, less the clock skew allowed elsewhere (an earlier
     * start would make the pacer hurry); its length is the spec's (the task's own check) and its planned keys at most
     * the final set's ({@link AuthorizedFinalSets}). A later start only slows the run.
     */
    private static Optional<Refusal> pacingRefusal(DeletionTask task, Authorization authorization) {
        if (task.spec().spreadOver() == null) {
            return Optional.empty(); // an unpaced spec: DeletionTask refuses a window on it
        }
        if (!task.paced()) {
            return Optional.of(Refusal.of(
                    Refusal.PACING_MISMATCH,
                    "its spec spreads the run over " + task.spec().spreadOver() + " but it carries no spread window"));
        }
        if (task.spread().start().isBefore(authorization.issuedAt().minus(CLOCK_SKEW))) {
            return Optional.of(Refusal.of(
                    Refusal.PACING_MISMATCH,
                    "its spread window starts at " + task.spread().start() + ", before the run was authorized ("
                            + authorization.issuedAt() + ")"));
        }
        return Optional.empty();
    }

    /**
     * Why {@code task} must not delete anything, or empty when it is authorized. A task refused here is not proven
     * authentic (every check below is of what its signature covers, or of what anyone could have changed on a genuine
     * task): its refusal must change no run's or request's state ({@link RefusedTasks}).
     */
    public Optional<Refusal> refusal(DeletionTask task) {
        Kind kind = kindOf(task);
        if (!enforced.contains(kind)) {
            return Optional.empty();
        }
        TaskAuthority authority = task.authority();
        if (authority == null) {
            return Optional.of(Refusal.of(
                    Refusal.UNSIGNED,
                    "it carries no authorization (only tasks the control plane authorized are executed)"));
        }
        Authorization authorization = authority.authorization();
        Optional<String> signature = trusted.refusal(authorization, kind);
        if (signature.isPresent()) {
            return Optional.of(Refusal.of(signatureClass(authorization, kind), signature.get()));
        }
        if (!authorization.origin().equals(task.originId())) {
            return Optional.of(Refusal.of(
                    Refusal.OTHER_ORIGIN,
                    "its authorization is for '" + authorization.origin() + "', not for '" + task.originId() + "'"));
        }
        if (!authorization.dataset().equals(task.dataset())) {
            return Optional.of(Refusal.of(
                    Refusal.OTHER_DATASET,
                    "its authorization is for dataset '" + authorization.dataset() + "', not '" + task.dataset()
                            + "'"));
        }
        if (!authorization.specDigest().equals(SpecDigest.of(task.spec()))) {
            return Optional.of(Refusal.of(
                    Refusal.OTHER_SPEC,
                    "its spec (" + task.spec().storeKind() + " "
                            + task.spec().connectionRef() + "/" + task.spec().namespace() + "."
                            + task.spec().table()
                            + ") is not the spec its authorization covers"));
        }
        if (authorization.cutoffMicros() != task.cutoff().micros()) {
            return Optional.of(Refusal.of(
                    Refusal.OTHER_CUTOFF,
                    "its cut-off " + task.cutoff().micros() + " is not the authorized "
                            + authorization.cutoffMicros()));
        }
        String contentId = task.contentId();
        if (!contentId.equals(task.taskId())) {
            return Optional.of(
                    Refusal.of(Refusal.ID_MISMATCH, "its id is not the one its content gives (" + contentId + ")"));
        }
        if (kind == Kind.RUN) {
            if (task.priority() != task.spec().priority()) {
                return Optional.of(Refusal.of(
                        Refusal.PRIORITY_MISMATCH,
                        "its priority " + task.priority() + " is not its spec's "
                                + task.spec().priority()));
            }
            Optional<Refusal> pacing = pacingRefusal(task, authorization);
            if (pacing.isPresent()) {
                return pacing;
            }
            return finalSets.refusal(
                    task.runId(),
                    task.dataset(),
                    authorization.setDigest(),
                    authority.finalPart(),
                    task.keys(),
                    task.paced() ? task.spread().plannedKeys() : 0);
        }
        if (!authorization.setDigest().equals(contentId)) {
            return Optional.of(
                    Refusal.of(Refusal.KEYS_NOT_COVERED, "its keys are not the keys its authorization covers"));
        }
        return Optional.empty();
    }

    /** The class of what {@link TrustedKeys#refusal(Authorization, Kind)} found wrong with {@code authorization}. */
    private String signatureClass(Authorization authorization, Kind kind) {
        if (authorization.kind() != kind) {
            return Refusal.WRONG_KIND;
        }
        if (authorization.keyId() == null
                || authorization.signature() == null
                || authorization.signature().isBlank()) {
            return Refusal.UNSIGNED;
        }
        Set<Kind> granted = grants.get(authorization.keyId());
        if (granted == null) {
            return Refusal.UNTRUSTED_KEY;
        }
        return granted.contains(kind) ? Refusal.BAD_SIGNATURE : Refusal.KEY_NOT_GRANTED;
    }
}
