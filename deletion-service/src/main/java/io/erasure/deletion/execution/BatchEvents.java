package io.erasure.deletion.execution;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.trust.SigningKey;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Batch results on {@code erasure.run.events}, with ids derived from the batch so a re-report is recognised, each
 * sealed with this service's key, which the control plane trusts for batch results ({@code BATCH_RESULT}) only.
 */
public class BatchEvents {

    private final KafkaTemplate<String, String> kafka;
    private final JsonMapper json;
    private final Clock clock;
    private final SigningKey key;

    public BatchEvents(KafkaTemplate<String, String> kafka, JsonMapper json, Clock clock, SigningKey key) {
        this.kafka = kafka;
        this.json = json;
        this.clock = clock;
        this.key = Objects.requireNonNull(key, "key");
    }

    /** Sends a batch result and returns once it is acknowledged. */
    public void send(DeletionTask task, String batchId, EventPayload payload) {
        sendAsync(task, batchId, payload).await();
    }

    /** A sent result, until it is acknowledged. */
    @FunctionalInterface
    public interface Sent {
        /** Returns once the result is acknowledged; throws {@link IllegalStateException} otherwise. */
        void await();
    }

    /** Sends a batch result; the caller awaits its acknowledgement when it needs it. */
    public Sent sendAsync(DeletionTask task, String batchId, EventPayload payload) {
        String runId = task.runId() == null ? null : task.runId().value();
        EventEnvelope event = EventEnvelope.of(
                        payload, runId, DeterministicId.nameBasedUuid("run-chain", task.originId()), clock)
                .withEventId(DeterministicId.nameBasedUuid(
                        "batch-event", batchId, EventPayload.typeName(payload.getClass())))
                .sealedWith(key);
        CompletableFuture<?> sent;
        try {
            sent = kafka.send(Topics.RUN_EVENTS, task.originId(), json.writeValueAsString(event));
        } catch (RuntimeException e) {
            throw new IllegalStateException("could not report batch " + batchId + ": " + e.getMessage(), e);
        }
        return () -> {
            try {
                kafka.flush(); // it goes now, not after the producer's linger
                sent.get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reporting batch " + batchId, e);
            } catch (Exception e) {
                throw new IllegalStateException("could not report batch " + batchId + ": " + e.getMessage(), e);
            }
        };
    }
}
