package io.erasure.validation;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.erasure.deletionlog.client.PriorDeletions;
import io.erasure.support.kafka.ListenerRetries;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.tasks.DeletionTaskPublisher;
import io.erasure.validation.check.CandidateChecks;
import io.erasure.validation.check.IdentifierLiveness;
import io.erasure.validation.check.ReadThrottle;
import io.erasure.validation.resurrection.DeletionLogConnection;
import io.erasure.validation.resurrection.ResurrectionDetector;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;
import tools.jackson.databind.json.JsonMapper;

@Configuration
@EnableConfigurationProperties({ValidationProperties.class, DeletionLogConnection.class})
class ValidationConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ValidationConfiguration.class);

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    DeletionTaskPublisher deletionTaskPublisher(KafkaTemplate<String, String> kafka, JsonMapper json) {
        return new DeletionTaskPublisher(kafka, json);
    }

    @Bean
    ReadThrottle readThrottle(ValidationProperties properties) {
        return new ReadThrottle(properties.readsPerSecond());
    }

    @Bean
    CandidateChecks candidateChecks(StoreAdapterPool stores, ReadThrottle throttle, Clock clock) {
        return new CandidateChecks(stores, new IdentifierLiveness(stores), throttle, clock);
    }

    /**
     * Reads the deletion log through its own session, like deletion-log-service's ({@code spring.cassandra.*}
     * there). Without contact points detection is off, loudly: every report says "not configured".
     */
    @Bean
    ResurrectionDetector resurrectionDetector(
            DeletionLogConnection connection, ReadThrottle throttle, MeterRegistry meters) {
        if (!connection.configured()) {
            log.warn(
                    "resurrection detection is OFF: erasure.validation.deletion-log.contact-points is not set, so rows"
                            + " deleted before and live again are not reported (reports say resurrectionCheck: \"{}\")",
                    ResurrectionDetector.NOT_CONFIGURED);
            return ResurrectionDetector.notConfigured(meters);
        }
        CqlSession session = deletionLogSession(connection);
        log.info(
                "resurrection detection reads the deletion log at {} (keyspace {})",
                connection.endpoints(),
                connection.keyspace());
        return new ResurrectionDetector(
                new PriorDeletions(session, connection.keyspace(), PriorDeletions.DEFAULT_CONCURRENCY),
                session,
                throttle,
                meters);
    }

    static CqlSession deletionLogSession(DeletionLogConnection connection) {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withStringList(DefaultDriverOption.CONTACT_POINTS, connection.endpoints())
                // as for Boot's session (CassandraStartupAutoConfiguration): a node down while the service starts is
                // waited for, not a reason to exit
                .withBoolean(DefaultDriverOption.RECONNECT_ON_INIT, true)
                .withString(DefaultDriverOption.SESSION_NAME, "erasure-validation-deletion-log")
                // a record missed on a lagging replica would hide a zombie from the report
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_QUORUM")
                .build();
        CqlSessionBuilder builder =
                CqlSession.builder().withConfigLoader(config).withLocalDatacenter(connection.localDatacenter());
        if (connection.username() != null) {
            builder.withAuthCredentials(connection.username(), connection.password());
        }
        return builder.build();
    }

    /**
     * S3, PostgreSQL or a store away (the listener re-throws those): retried until it is back; anything else that
     * escapes the listener for up to 15 minutes.
     */
    @Bean
    DefaultErrorHandler kafkaErrorHandler() {
        return ListenerRetries.untilDependenciesAreBack(Duration.ofMinutes(15));
    }
}
