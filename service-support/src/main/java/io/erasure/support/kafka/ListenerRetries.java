package io.erasure.support.kafka;

import io.erasure.store.spi.StoreException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RetryListener;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkServiceException;

/**
 * How a listener retries a record it failed to handle. While the failure is an outage of something the service depends
 * on (its database, S3, the broker, a store), the record is retried without end, backing off to once a minute: skipping
 * it would lose an event no one sends again (a run would wait for its last batch forever). Any other failure is retried
 * for {@code bounded} from the record's first failure and then skipped with an error in the log, so that a record that
 * can never succeed does not hold its partition. The choice is made again at every attempt, on that attempt's failure.
 */
public final class ListenerRetries {

    /** SQL states of a lost connection, a server shutting down or out of resources, a lock or failover to wait out. */
    private static final Set<String> TRANSIENT_SQL_STATES = Set.of("40001", "40P01", "55P03", "25006", "57014");

    private ListenerRetries() {}

    /** The error handler: without end through outages, {@code bounded} for anything else. */
    public static DefaultErrorHandler untilDependenciesAreBack(Duration bounded) {
        OutageAwareBackOff backOff = new OutageAwareBackOff(bounded.toMillis());
        DefaultErrorHandler handler = new DefaultErrorHandler(backOff);
        handler.setRetryListeners(backOff);
        return handler;
    }

    /**
     * True if {@code failure} (or a cause) says a dependency is unreachable or overloaded, not that the record is bad.
     */
    public static boolean outage(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof DataAccessResourceFailureException
                    || e instanceof TransientDataAccessResourceException
                    || e instanceof RecoverableDataAccessException
                    || e instanceof QueryTimeoutException
                    || e instanceof PessimisticLockingFailureException
                    || e instanceof SQLRecoverableException
                    || e instanceof SQLTransientConnectionException
                    || e instanceof RetriableException
                    || e instanceof StoreException.Retriable
                    || e instanceof SocketException
                    || e instanceof SocketTimeoutException
                    || e instanceof UnknownHostException
                    || e instanceof ApiCallTimeoutException
                    || e instanceof ApiCallAttemptTimeoutException) {
                return true;
            }
            if (e instanceof SdkServiceException service
                    && (service.statusCode() >= 500 || service.isThrottlingException())) {
                return true;
            }
            if (e instanceof SQLException sql
                    && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08")
                            || sql.getSQLState().startsWith("57P")
                            || sql.getSQLState().startsWith("53")
                            || TRANSIENT_SQL_STATES.contains(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Exponential back-off (1 s doubling to 1 min) whose end depends on the failure of the attempt just made, which the
     * handler reports ({@link RetryListener#failedDelivery}) on the consumer's thread before it asks for the next wait.
     */
    static final class OutageAwareBackOff implements BackOff, RetryListener {

        private final long boundedMillis;
        private final ThreadLocal<Throwable> lastFailure = new ThreadLocal<>();

        OutageAwareBackOff(long boundedMillis) {
            this.boundedMillis = boundedMillis;
        }

        @Override
        public void failedDelivery(ConsumerRecord<?, ?> record, Exception failure, int deliveryAttempt) {
            lastFailure.set(failure);
        }

        @Override
        public BackOffExecution start() {
            long started = System.nanoTime();
            return new BackOffExecution() {
                private long interval = 1_000;

                @Override
                public long nextBackOff() {
                    boolean outage = outage(lastFailure.get());
                    long elapsed = (System.nanoTime() - started) / 1_000_000;
                    if (!outage && elapsed >= boundedMillis) {
                        return STOP;
                    }
                    long wait = interval;
                    interval = Math.min(60_000, interval * 2);
                    return wait;
                }
            };
        }
    }
}
