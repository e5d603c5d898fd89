package io.erasure.validation.check;

/** Why a candidate does not reach the final set; the names are the report's and the receipt's keys. */
public enum DropReason {
    /** The identifier is no longer deletable in the live identifier source (e.g. a customer came back). */
    REACTIVATED("reactivated"),
    /** The live identifier source has no row for the identifier: deletability cannot be confirmed. */
    IDENTIFIER_NOT_FOUND("identifierNotFound"),
    /** The row is gone already. */
    ALREADY_ABSENT("alreadyAbsent"),
    /** The row was written after the backup's cut-off. */
    MODIFIED_SINCE_BACKUP("modifiedSinceBackup");

    private final String key;

    DropReason(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}
