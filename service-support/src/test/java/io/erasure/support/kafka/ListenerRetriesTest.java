package io.erasure.support.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Outages are told from bad records, through the wrappers a listener's failure arrives in. */
class ListenerRetriesTest {

    private static Throwable asTheListenerThrowsIt(Throwable cause) {
        return new ListenerExecutionFailedException("Listener method threw exception", new IllegalStateException(cause));
    }

    @Test
    void anUnreachableDatabaseS3OrBrokerIsAnOutage() {
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(SdkClientException.create("Connect to 127.0.0.1:19000 failed",
                new ConnectException("Connection refused"))))).isTrue();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(S3Exception.builder().statusCode(503).message("Slow Down")
                .build()))).isTrue();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(new DataAccessResourceFailureException("Failed to obtain JDBC Connection")))).isTrue();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(new SQLException("terminating connection due to administrator"
                + " command", "57P01")))).isTrue();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(new SQLException("An I/O error occurred", "08006")))).isTrue();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(new NotLeaderOrFollowerException("moving")))).isTrue();
    }

    @Test
    void aRecordTheStoresRefuseIsNotAnOutage() {
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(new DataIntegrityViolationException("duplicate key")))).isFalse();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(NoSuchKeyException.builder().statusCode(404).message("no key")
                .build()))).isFalse();
        assertThat(ListenerRetries.outage(asTheListenerThrowsIt(new SQLException("value too long", "22001")))).isFalse();
        assertThat(ListenerRetries.outage(new IllegalArgumentException("unknown run"))).isFalse();
    }
}
