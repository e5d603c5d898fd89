package io.erasure.infra.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads what was published on a topic, from its start, as a fresh consumer group: for tests that
 * assert on messages (what a service published, how many times).
 */
public final class TopicRecords {

    private TopicRecords() {}

    /**
     * The values on {@code topic} that {@code parse} turns into matches of {@code filter}. Waits until at
     * least {@code atLeast} matched (or the timeout), then polls a little longer so that extra copies show
     * up too; with {@code atLeast} 0 it reads for the whole timeout.
     */
    public static <T> List<T> read(
            String bootstrapServers,
            String topic,
            Function<String, T> parse,
            Predicate<T> filter,
            int atLeast,
            Duration timeout) {
        List<T> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "test-reader-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            int quietPolls = 0;
            while (System.nanoTime() < deadline && quietPolls < 3) {
                var records = consumer.poll(Duration.ofMillis(300));
                for (ConsumerRecord<String, String> record : records) {
                    T value = parse.apply(record.value());
                    if (filter.test(value)) {
                        found.add(value);
                    }
                }
                if (atLeast > 0 && found.size() >= atLeast && records.isEmpty()) {
                    quietPolls++;
                }
            }
        }
        return found;
    }
}
