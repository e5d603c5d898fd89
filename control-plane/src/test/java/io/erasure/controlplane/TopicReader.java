package io.erasure.controlplane;

import io.erasure.infra.LocalEngines;
import io.erasure.model.event.EventEnvelope;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.json.JsonMapper;

/** Reads a topic from the start, as a fresh consumer group, for assertions on what was published. */
public final class TopicReader {

    private final JsonMapper json;

    public TopicReader(JsonMapper json) {
        this.json = json;
    }

    /** Every envelope matching {@code filter}, waiting until at least {@code atLeast} arrived (then a little more). */
    public List<EventEnvelope> read(String topic, Predicate<EventEnvelope> filter, int atLeast) {
        List<EventEnvelope> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, LocalEngines.kafka().bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int quietPolls = 0;
            while (System.nanoTime() < deadline && quietPolls < 3) {
                var records = consumer.poll(Duration.ofMillis(300));
                for (ConsumerRecord<String, String> record : records) {
                    EventEnvelope envelope = json.readValue(record.value(), EventEnvelope.class);
                    if (filter.test(envelope)) {
                        found.add(envelope);
                    }
                }
                if (found.size() >= atLeast && records.isEmpty()) {
                    quietPolls++;
                }
            }
        }
        return found;
    }
}
