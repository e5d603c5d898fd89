package io.erasure.audit.join;

import java.io.IOException;

/** A failure of a join's output, not of the part it reads: carried out of the loop, never reported as corruption. */
final class SinkFailure extends RuntimeException {

    SinkFailure(Exception cause) {
        super(cause);
    }

    IOException rethrow() {
        if (getCause() instanceof IOException io) {
            return io;
        }
        throw (RuntimeException) getCause();
    }
}
