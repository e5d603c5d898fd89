package io.erasure.deletionlog;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.deletionlog.client.DeletionLog;
import io.erasure.deletionlog.ingest.DeadLetters;
import io.erasure.deletionlog.schema.DeletionLogKeyspace;
import io.erasure.model.contract.Topics;
import io.erasure.support.access.AccessRules;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.ExponentialBackOff;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DeletionLogProperties.class)
class DeletionLogConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** Needs the keyspace and tables to exist: it prepares its statements at once. */
    @Bean
    DeletionLog deletionLog(
            CqlSession session,
            DeletionLogKeyspace schema,
            DeletionLogProperties properties,
            JsonMapper json,
            Clock clock) {
        return DeletionLog.open(
                session, properties.masterKey(), properties.ttl(), json, clock, properties.consistency());
    }

    /** Dead letters may hold the only copy of deleted rows: kept 30 days like the log, as durable as the log topic. */
    @Bean
    NewTopic deadLetterTopic(@Value("${erasure.topics.replicas:1}") int replicas) {
        return TopicBuilder.name(Topics.DELETION_LOG_DEAD_LETTER)
                .partitions(1)
                .replicas(replicas)
                .config(
                        TopicConfig.RETENTION_MS_CONFIG,
                        Long.toString(Duration.ofDays(30).toMillis()))
                .config(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false")
                .config(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(Math.min(2, replicas)))
                .build();
    }

    @Bean
    DeadLetters deadLetters(KafkaTemplate<String, String> kafka, JsonMapper json, MeterRegistry meters) {
        return new DeadLetters(kafka, json, meters);
    }

    /**
     * A batch that cannot be stored (Cassandra down) is retried with backoff for as long as it takes:
     * skipping it would lose the only copy of deleted rows once the topic's retention runs out.
     */
    @Bean
    DefaultErrorHandler kafkaErrorHandler() {
        ExponentialBackOff backOff = new ExponentialBackOff(500, 2.0);
        backOff.setMaxInterval(30_000);
        backOff.setMaxElapsedTime(Long.MAX_VALUE);
        return new DefaultErrorHandler(backOff);
    }

    /** Purging the log is an operator's act; reading it needs any role (full rows: RECOVERY, checked per request). */
    @Bean
    AccessRules deletionLogAccess() {
        return requests ->
                requests.requestMatchers(HttpMethod.POST, "/api/log/**").hasRole("OPERATOR");
    }
}
