package io.erasure.support.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.util.backoff.BackOffExecution;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Outages are told from bad records, through the wrappers a listener's failure arrives in. */
class ListenerRetriesTest {

    private static Throwable asTheListenerThrowsIt(Throwable cause) {
        return new ListenerExecutionFailedException(
                "Listener method threw exception", new IllegalStateException(cause));
    }

    @Test
    void anUnreachableDatabaseS3OrBrokerIsAnOutage() {
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(SdkClientException.create(
                        "Connect to 127.0.0.1:19000 failed", new ConnectException("Connection refused")))))
                .isTrue();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(S3Exception.builder()
                        .statusCode(503)
                        .message("Slow Down")
                        .build())))
                .isTrue();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(
                        new DataAccessResourceFailureException("Failed to obtain JDBC Connection"))))
                .isTrue();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(
                        new SQLException("terminating connection due to administrator" + " command", "57P01"))))
                .isTrue();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(new SQLException("An I/O error occurred", "08006"))))
                .isTrue();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(new NotLeaderOrFollowerException("moving"))))
                .isTrue();
    }

    @Test
    void eachAttemptIsJudgedByItsOwnFailure() {
        ListenerRetries.OutageAwareBackOff backOff = new ListenerRetries.OutageAwareBackOff(0);
        BackOffExecution execution = backOff.start();
        backOff.failedDelivery(
                (ConsumerRecord<?, ?>) null,
                new IllegalStateException(
                        SdkClientException.create("down", new ConnectException("Connection refused"))),
                1);
        assertThat(execution.nextBackOff())
                .as("an outage: waited out, past the bound")
                .isEqualTo(1_000);
        assertThat(execution.nextBackOff()).isEqualTo(2_000);
        backOff.failedDelivery((ConsumerRecord<?, ?>) null, new IllegalArgumentException("no such run"), 3);
        assertThat(execution.nextBackOff())
                .as("then a failure of the record itself: the bound applies")
                .isEqualTo(BackOffExecution.STOP);
    }

    @Test
    void aRecordTheStoresRefuseIsNotAnOutage() {
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(new DataIntegrityViolationException("duplicate key"))))
                .isFalse();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(NoSuchKeyException.builder()
                        .statusCode(404)
                        .message("no key")
                        .build())))
                .isFalse();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(new SQLException("value too long", "22001"))))
                .isFalse();
        assertThat(ListenerRetries.outage(new IllegalArgumentException("unknown run")))
                .isFalse();
        assertThat(ListenerRetries.outage(
                        asTheListenerThrowsIt(SdkClientException.create("Unable to marshall request"))))
                .as("a client that cannot even build the request")
                .isFalse();
    }
}
