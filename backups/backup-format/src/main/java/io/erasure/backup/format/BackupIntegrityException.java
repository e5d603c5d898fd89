package io.erasure.backup.format;

/**
 * A backup cannot be trusted: a part or manifest is missing, unreadable, or does not match its
 * manifest (SHA-256, row count, schema). Retrying does not help; whoever reads the backup must fail
 * with this message instead of using any of it.
 */
public class BackupIntegrityException extends RuntimeException {

    public BackupIntegrityException(String message) {
        super(message);
    }

    public BackupIntegrityException(String message, Throwable cause) {
        super(message, cause);
    }
}
