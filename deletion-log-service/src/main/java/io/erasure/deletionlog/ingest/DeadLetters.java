package io.erasure.deletionlog.ingest;

import io.erasure.model.check.Names;
import io.erasure.model.contract.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Log records that can never be stored go to {@link Topics#DELETION_LOG_DEAD_LETTER}, acknowledged before the offsets
 * past them are committed: the topic's copy may be the only one of a deleted row, and skipping it would lose that row
 * once the topic's retention runs out. Each dead letter names its dataset, whose deletion then stops (the deletion
 * service's ingestion gate reads the unresolved dead letters) until an operator resolves it; an error log and the
 * metric {@code erasure.deletion_log.records{outcome=dead_lettered}} raise the alert.
 */
public class DeadLetters {

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    private final KafkaTemplate<String, String> kafka;
    private final JsonMapper json;
    private final MeterRegistry meters;

    public DeadLetters(KafkaTemplate<String, String> kafka, JsonMapper json, MeterRegistry meters) {
        this.kafka = kafka;
        this.json = json;
        this.meters = meters;
    }

    /** A message that cannot be stored, and why. */
    public record DeadLetter(ConsumerRecord<String, String> message, String reason) {}

    /** Sends every dead letter and returns once all are acknowledged; throws (nothing is committed) otherwise. */
    public void send(List<DeadLetter> letters) {
        if (letters.isEmpty()) {
            return;
        }
        List<CompletableFuture<SendResult<String, String>>> acks = new ArrayList<>();
        for (DeadLetter letter : letters) {
            ConsumerRecord<String, String> message = letter.message();
            String dataset = datasetOf(message);
            String origin = message.topic() + "-" + message.partition() + "@" + message.offset();
            ProducerRecord<String, String> dead =
                    new ProducerRecord<>(Topics.DELETION_LOG_DEAD_LETTER, message.key(), message.value());
            message.headers().forEach(dead.headers()::add);
            dead.headers().add(Topics.DEAD_LETTER_DATASET, dataset.getBytes(StandardCharsets.UTF_8));
            dead.headers().add(Topics.DEAD_LETTER_REASON, letter.reason().getBytes(StandardCharsets.UTF_8));
            dead.headers().add(Topics.DEAD_LETTER_ORIGIN, origin.getBytes(StandardCharsets.UTF_8));
            acks.add(kafka.send(dead));
            meters.counter("erasure.deletion_log.records", "outcome", "dead_lettered")
                    .increment();
            log.error(
                    "deletion record at {} cannot be stored: sent to {}; deletion of {} stops until it is resolved: {}",
                    origin,
                    Topics.DELETION_LOG_DEAD_LETTER,
                    dataset.equals(Topics.CONTROL_GLOBAL_KEY)
                            ? "every dataset (its dataset cannot be told)"
                            : "dataset " + dataset,
                    letter.reason());
        }
        try {
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while dead-lettering " + letters.size() + " records", e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "the dead-letter topic did not acknowledge " + letters.size() + " records;"
                            + " the batch is redelivered: " + e.getMessage(),
                    e);
        }
    }

    /**
     * The dataset of a message: its {@code dataset} field if it is JSON, else its key's prefix; {@code global} (every
     * dataset stops) when neither names a valid dataset.
     */
    String datasetOf(ConsumerRecord<String, String> message) {
        String candidate = null;
        try {
            JsonNode node = message.value() == null ? null : json.readTree(message.value());
            if (node != null && node.isObject() && node.path("dataset").isString()) {
                candidate = node.path("dataset").asString();
            }
        } catch (RuntimeException notJson) {
            candidate = null;
        }
        if (candidate == null && message.key() != null && message.key().indexOf('|') > 0) {
            candidate = message.key().substring(0, message.key().indexOf('|'));
        }
        try {
            return candidate == null || Topics.CONTROL_GLOBAL_KEY.equals(candidate)
                    ? Topics.CONTROL_GLOBAL_KEY
                    : Names.datasetName("dataset", candidate);
        } catch (IllegalArgumentException invalid) {
            return Topics.CONTROL_GLOBAL_KEY;
        }
    }
}
