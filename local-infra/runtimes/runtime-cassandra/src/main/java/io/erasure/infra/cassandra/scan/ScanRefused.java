package io.erasure.infra.cassandra.scan;

/** The scan cannot be done as asked (schema, files, identifiers): its message says what and how to fix it. */
final class ScanRefused extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ScanRefused(String message) {
        super(message);
    }

    ScanRefused(String message, Throwable cause) {
        super(message, cause);
    }
}
