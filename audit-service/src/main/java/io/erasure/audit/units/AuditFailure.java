package io.erasure.audit.units;

/**
 * The audit of a run cannot succeed: a backup is missing, corrupt or does not fit the dataset.
 * The message is the {@code AuditFailed} reason the control plane shows; retrying does not help.
 */
public class AuditFailure extends RuntimeException {

    public AuditFailure(String reason) {
        super(reason);
    }

    public AuditFailure(String reason, Throwable cause) {
        super(reason, cause);
    }
}
