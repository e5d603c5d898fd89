package io.erasure.deletion.trust;

import io.erasure.model.check.Require;

/**
 * Why a task must not delete anything ({@link TaskVerifier}): a short class of the reason, for the metric
 * {@code erasure.deletion.tasks.refused} and the refused-task record, and the reason itself.
 */
public record Refusal(String reasonClass, String reason) {

    /** No authority, or an authorization without a key id or signature. */
    public static final String UNSIGNED = "unsigned";
    /** An authorization of another kind than the task needs. */
    public static final String WRONG_KIND = "wrong-kind";
    /** Signed by a key that is not trusted here. */
    public static final String UNTRUSTED_KEY = "untrusted-key";
    /** Signed by a trusted key not granted the task's kind. */
    public static final String KEY_NOT_GRANTED = "key-not-granted";
    /** A signature that does not match the authorization (altered, or another key's). */
    public static final String BAD_SIGNATURE = "bad-signature";
    /** A valid authorization of another run or request. */
    public static final String OTHER_ORIGIN = "other-origin";
    /** A valid authorization of another dataset. */
    public static final String OTHER_DATASET = "other-dataset";
    /** A spec that is not the one the authorization covers. */
    public static final String OTHER_SPEC = "other-spec";
    /** A cut-off that is not the authorized one. */
    public static final String OTHER_CUTOFF = "other-cutoff";
    /** A task id that is not the one the task's content gives. */
    public static final String ID_MISMATCH = "id-mismatch";
    /** A run's task whose priority is not its spec's. */
    public static final String PRIORITY_MISMATCH = "priority-mismatch";
    /** Keys the authorization does not cover (a forward/copy signature of other keys, keys outside the final set). */
    public static final String KEYS_NOT_COVERED = "keys-not-covered";
    /**
     * A run's task paced otherwise than its signed spec and authorization allow: no window though its spec spreads the
     * run, a window starting before the run was authorized, or more keys planned than its final set holds.
     */
    public static final String PACING_MISMATCH = "pacing-mismatch";
    /** The run's final-set manifest or part is missing or unreadable. */
    public static final String FINAL_SET_MISSING = "final-set-missing";
    /** The run's final-set manifest or part is not the one the control plane signed. */
    public static final String FINAL_SET_ALTERED = "final-set-altered";

    public Refusal {
        Require.nonBlank("reasonClass", reasonClass);
        Require.nonBlank("reason", reason);
    }

    public static Refusal of(String reasonClass, String reason) {
        return new Refusal(reasonClass, reason);
    }
}
