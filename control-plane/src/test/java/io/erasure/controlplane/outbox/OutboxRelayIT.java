package io.erasure.controlplane.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.kafka.TopicRecords;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Two control-plane replicas relaying the outbox at once still put the messages of one key on their partition in the
 * order they were added: on the compacted control topic, the last message of a scope is what survives compaction.
 */
class OutboxRelayIT extends ControlPlaneTestSupport {

    @Autowired
    OutboxRelay relay;

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    Clock clock;

    @Test
    void twoReplicasRelayingAtOnceKeepTheOrderOfAKeysMessages() {
        String topic = "erasure.test.outbox-order-" + unique("t");
        int messages = 600;
        IntStream.range(0, messages)
                .forEach(i -> jdbc.update(
                        "INSERT INTO outbox (topic, message_key, payload, created_at) VALUES (?, 'scope', ?, ?)",
                        topic,
                        Integer.toString(i),
                        Timestamp.from(Instant.now())));
        OutboxRelay otherReplica = new OutboxRelay(jdbc, kafka, transactions, json, clock);

        while (unsent(topic) > 0) {
            CompletableFuture<Integer> one = CompletableFuture.supplyAsync(relay::relay);
            CompletableFuture<Integer> other = CompletableFuture.supplyAsync(otherReplica::relay);
            one.join();
            other.join();
        }

        List<Integer> order = TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                topic,
                Integer::valueOf,
                i -> true,
                messages,
                Duration.ofSeconds(60));
        assertThat(order)
                .as("the key's messages in the order they were added, each once")
                .containsExactlyElementsOf(IntStream.range(0, messages).boxed().toList());
    }

    private int unsent(String topic) {
        return jdbc.queryForObject(
                "SELECT count(*) FROM outbox WHERE topic = ? AND sent_at IS NULL", Integer.class, topic);
    }
}
