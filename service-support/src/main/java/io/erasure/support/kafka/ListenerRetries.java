package io.erasure.support.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.time.Duration;
import org.apache.kafka.common.errors.RetriableException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;

/**
 * How a listener retries a record it failed to handle. While the failure is an outage of something the service depends
 * on (its database, S3, the broker), the record is retried without end, backing off to once a minute: skipping it would
 * lose an event no one sends again (a run would wait for its last batch forever). Any other failure is retried for
 * {@code bounded} and then skipped with an error in the log, so that a record that can never succeed does not hold its
 * partition.
 */
public final class ListenerRetries {

    private ListenerRetries() {
    }

    /** The error handler: without end through outages, {@code bounded} for anything else. */
    public static DefaultErrorHandler untilDependenciesAreBack(Duration bounded) {
        DefaultErrorHandler handler = new DefaultErrorHandler(backOff(bounded.toMillis()));
        BackOff throughOutages = backOff(Long.MAX_VALUE);
        handler.setBackOffFunction((record, failure) -> outage(failure) ? throughOutages : null);
        return handler;
    }

    private static BackOff backOff(long maxElapsedMillis) {
        ExponentialBackOff backOff = new ExponentialBackOff(1_000, 2.0);
        backOff.setMaxInterval(60_000);
        backOff.setMaxElapsedTime(maxElapsedMillis);
        return backOff;
    }

    /** True if {@code failure} (or a cause) says a dependency is unreachable or overloaded, not that the record is bad. */
    public static boolean outage(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof TransientDataAccessException || e instanceof DataAccessResourceFailureException
                    || e instanceof RecoverableDataAccessException || e instanceof SQLTransientException
                    || e instanceof SQLRecoverableException || e instanceof SdkClientException
                    || e instanceof RetriableException || e instanceof IOException || e instanceof UncheckedIOException) {
                return true;
            }
            if (e instanceof SdkServiceException service && (service.statusCode() >= 500 || service.isThrottlingException())) {
                return true;
            }
            if (e instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P")
                    || sql.getSQLState().startsWith("53"))) {
                return true; // connection lost, server shutting down or restarting, out of resources
            }
        }
        return false;
    }
}
