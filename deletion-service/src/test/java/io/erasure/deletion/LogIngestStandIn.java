package io.erasure.deletion;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.erasure.deletionlog.client.LogSchema;
import io.erasure.infra.LocalEngines;
import io.erasure.model.contract.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The deletion-log service's part in these tests: its group consumes and commits the log topic, so the ingestion gate
 * (which fails closed while the group never committed) sees a log being ingested. It stores nothing, but creates the
 * log's tables, whose {@code dataset_keys} seal every record.
 */
@TestConfiguration
public class LogIngestStandIn {

    @Bean
    Ingest logIngestStandIn(CqlSession deletionLogKeysSession) {
        deletionLogKeysSession.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + LogSchema.KEYSPACE
                        + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
                .setTimeout(Duration.ofSeconds(30)));
        LogSchema.create(deletionLogKeysSession, Duration.ofDays(30));
        return new Ingest(LocalEngines.kafka().bootstrapServers());
    }

    /** The deletion-log service's consumer group, consuming and committing the log topic until closed. */
    public static final class Ingest implements DisposableBean, AutoCloseable {
        private final KafkaConsumer<String, String> consumer;
        private final Thread loop = new Thread(this::run, "log-ingest-stand-in");

        public Ingest(String bootstrapServers) {
            consumer = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            bootstrapServers,
                            ConsumerConfig.GROUP_ID_CONFIG,
                            "deletion-log-service",
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                            "earliest",
                            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                            false),
                    new StringDeserializer(),
                    new StringDeserializer());
            loop.setDaemon(true);
            loop.start();
        }

        private void run() {
            try {
                consumer.subscribe(List.of(Topics.DELETION_LOG));
                while (!Thread.currentThread().isInterrupted()) {
                    consumer.poll(Duration.ofMillis(200));
                    consumer.commitSync();
                }
            } catch (WakeupException closing) {
                // the context is closing
            } finally {
                consumer.close(Duration.ofSeconds(2));
            }
        }

        @Override
        public void destroy() throws InterruptedException {
            close();
        }

        @Override
        public void close() throws InterruptedException {
            consumer.wakeup();
            loop.join(5_000);
        }
    }
}
