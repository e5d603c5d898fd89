package io.erasure.audit.units;

import io.erasure.model.event.AuditUnit;
import io.erasure.model.event.EventEnvelope;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * One consumer of the {@code erasure.audit.units} group: takes one unit at a time and commits its
 * offset only after the unit's outputs are stored. If this replica dies mid-unit, the group hands
 * the partition to another member, which resumes from the last committed offset and redoes the
 * unit (outputs are idempotent, see {@link UnitProcessor}).
 *
 * <p>A unit that fails for a transient reason (S3 or Kafka unavailable) is retried in place with a
 * growing pause, up to {@code maxAttempts}; then the run fails with the last error. Threading: one
 * thread per worker; {@link #stop()} may be called from any thread.
 */
public final class UnitWorker implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(UnitWorker.class);

    private final Supplier<Consumer<String, String>> consumers;
    private final String topic;
    private final UnitProcessor processor;
    private final JsonMapper json;
    private final int maxAttempts;
    private final Duration retryPause;
    private volatile boolean running = true;
    private volatile Consumer<String, String> consumer;

    /** @param topic {@code erasure.audit.units} (another name only to isolate tests sharing a broker) */
    public UnitWorker(
            Supplier<Consumer<String, String>> consumers,
            String topic,
            UnitProcessor processor,
            JsonMapper json,
            int maxAttempts,
            Duration retryPause) {
        this.consumers = consumers;
        this.topic = topic;
        this.processor = processor;
        this.json = json;
        this.maxAttempts = Math.max(1, maxAttempts);
        this.retryPause = retryPause;
    }

    @Override
    public void run() {
        try (Consumer<String, String> c = consumers.get()) {
            consumer = c;
            c.subscribe(List.of(topic));
            while (running) {
                for (ConsumerRecord<String, String> record : c.poll(Duration.ofMillis(500))) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    try {
                        handle(record);
                    } catch (RuntimeException e) {
                        // even failing the run did not work (Kafka or S3 down): take the unit again later
                        log.error("unit at {}@{} not handled, will be retried", partition, record.offset(), e);
                        c.seek(partition, record.offset());
                        Thread.sleep(retryPause.toMillis());
                        continue;
                    }
                    c.commitSync(Map.of(partition, new OffsetAndMetadata(record.offset() + 1)));
                }
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops after the unit in hand (its offset is committed only if it finished). */
    public void stop() {
        running = false;
        Consumer<String, String> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }

    private void handle(ConsumerRecord<String, String> record) throws InterruptedException {
        EventEnvelope envelope;
        try {
            envelope = json.readValue(record.value(), EventEnvelope.class);
        } catch (JacksonException e) {
            log.error(
                    "unreadable message at {}-{}@{} skipped: {}",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    e.getOriginalMessage());
            return;
        }
        if (!(envelope.payload() instanceof AuditUnit unit)) {
            return;
        }
        for (int attempt = 1; ; attempt++) {
            try {
                processor.process(envelope);
                return;
            } catch (Exception e) {
                if (attempt >= maxAttempts) {
                    processor.fail(
                            envelope,
                            unit.spec().name(),
                            "unit " + unit.partIndex() + " (" + unit.partKey() + ") failed " + attempt
                                    + " times, last: " + e.getMessage());
                    return;
                }
                log.warn(
                        "run {} unit {} attempt {} failed, retrying: {}",
                        envelope.runId(),
                        unit.partIndex(),
                        attempt,
                        e.toString());
                Thread.sleep(retryPause.toMillis() * attempt);
            }
        }
    }
}
