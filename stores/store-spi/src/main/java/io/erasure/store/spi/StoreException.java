package io.erasure.store.spi;

import org.jspecify.annotations.Nullable;

/** A store failure, either worth retrying or not. */
public abstract sealed class StoreException extends RuntimeException
        permits StoreException.Retriable, StoreException.Fatal {

    protected StoreException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /** Transient (timeout, unavailable, connection lost): back off and retry the same call. */
    public static final class Retriable extends StoreException {
        public Retriable(String message, @Nullable Throwable cause) {
            super(message, cause);
        }
    }

    /** Retrying cannot help (schema mismatch, refused dataset, bad settings): fail the step with this message. */
    public static final class Fatal extends StoreException {
        public Fatal(String message) {
            super(message, null);
        }

        public Fatal(String message, @Nullable Throwable cause) {
            super(message, cause);
        }
    }
}
