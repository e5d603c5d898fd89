package io.erasure.store.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.RequestThrottlingException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.ConnectionInitException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.BootstrappingException;
import com.datastax.oss.driver.api.core.servererrors.FunctionFailureException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.TruncateException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteFailureException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.erasure.store.spi.StoreException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Maps driver failures onto the SPI's two kinds: what a back-off and retry can fix (timeouts, unavailable
 * replicas, lost connections, an overloaded node) and what it cannot (invalid query, schema changed,
 * a value that does not fit its column).
 */
public final class CassandraErrors {

    private CassandraErrors() {}

    /** {@code failure} as a {@link StoreException}, with {@code doing} (e.g. "deleting from ks.t") in the message. */
    public static StoreException translate(String doing, Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof StoreException store) {
            return store;
        }
        String message = doing + " failed: " + cause.getMessage();
        if (isRetriable(cause)) {
            return new StoreException.Retriable(message, cause);
        }
        if (cause instanceof FunctionFailureException) {
            return new StoreException.Fatal(
                    doing + " failed: a value does not fit its column type (values are read as"
                            + " JSON: numbers, strings, booleans; blobs as base64): " + cause.getMessage(),
                    cause);
        }
        if (cause instanceof QueryValidationException) {
            return new StoreException.Fatal(
                    message + " (the table's schema may have changed since the dataset was"
                            + " registered; check the dataset against the live table)",
                    cause);
        }
        return new StoreException.Fatal(message, cause);
    }

    static boolean isRetriable(Throwable cause) {
        if (cause instanceof AllNodesFailedException all) {
            // NoNodeAvailableException included: no node could be tried, or every node failed
            List<Throwable> errors =
                    all.getAllErrors().values().stream().flatMap(List::stream).toList();
            return errors.isEmpty() || errors.stream().allMatch(CassandraErrors::isRetriable);
        }
        return cause instanceof DriverTimeoutException
                || cause instanceof UnavailableException
                || cause instanceof ReadTimeoutException
                || cause instanceof WriteTimeoutException
                || cause instanceof ReadFailureException
                || cause instanceof WriteFailureException
                || cause instanceof OverloadedException
                || cause instanceof BootstrappingException
                || cause instanceof TruncateException
                || cause instanceof ServerError
                || cause instanceof RequestThrottlingException
                || cause instanceof ClosedConnectionException
                || cause instanceof BusyConnectionException
                || cause instanceof HeartbeatException
                || cause instanceof ConnectionInitException
                || cause instanceof IOException;
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
