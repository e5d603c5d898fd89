package io.erasure.audit.join;

/** A record that is not valid JSON Lines / CSV; the join reports the part as corrupt. */
final class MalformedRecordException extends RuntimeException {

    MalformedRecordException(String message) {
        super(message, null, false, false);
    }
}
