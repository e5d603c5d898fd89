package io.erasure.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalEnginesExtension.class)
class KafkaEngineIT {

    @Test
    void readCommittedConsumerSeesCommittedTransactionsOnlyAndDataSurvivesARestart(KafkaEngine kafka) throws Exception {
        String topic = "engine-test-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        try (KafkaProducer<String, String> producer = transactionalProducer(kafka)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "k1", "committed-1"));
            producer.send(new ProducerRecord<>(topic, "k2", "committed-2"));
            producer.commitTransaction();

            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "k3", "aborted"));
            producer.flush();
            producer.abortTransaction();
        }
        assertThat(readAll(kafka, topic, 2)).containsExactly("committed-1", "committed-2");

        kafka.restart();

        assertThat(readAll(kafka, topic, 2)).containsExactly("committed-1", "committed-2");
    }

    private static KafkaProducer<String, String> transactionalProducer(KafkaEngine kafka) {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true,
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        "engine-test-" + UUID.randomUUID()),
                new StringSerializer(),
                new StringSerializer());
    }

    private static List<String> readAll(KafkaEngine kafka, String topic, int expected) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "engine-test-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            // keep polling a little after the expected count, so an aborted record would show up too
            int emptyPollsAfterExpected = 0;
            while (System.nanoTime() < deadline && emptyPollsAfterExpected < 3) {
                var records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<String, String> record : records) {
                    values.add(record.value());
                }
                if (values.size() >= expected && records.isEmpty()) {
                    emptyPollsAfterExpected++;
                }
            }
        }
        return values;
    }
}
