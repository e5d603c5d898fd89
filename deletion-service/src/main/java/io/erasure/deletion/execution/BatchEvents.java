package io.erasure.deletion.execution;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.task.DeletionTask;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/** Batch results on {@code erasure.run.events}, with ids derived from the batch so a re-report is recognised. */
public class BatchEvents {

    private final KafkaTemplate<String, String> kafka;
    private final JsonMapper json;
    private final Clock clock;

    public BatchEvents(KafkaTemplate<String, String> kafka, JsonMapper json, Clock clock) {
        this.kafka = kafka;
        this.json = json;
        this.clock = clock;
    }

    public void send(DeletionTask task, String batchId, EventPayload payload) {
        String runId = task.runId() == null ? null : task.runId().value();
        EventEnvelope event = EventEnvelope.of(payload, runId, DeterministicId.nameBasedUuid("run-chain", task.originId()),
                        clock)
                .withEventId(DeterministicId.nameBasedUuid("batch-event", batchId, EventPayload.typeName(payload.getClass())));
        try {
            kafka.send(Topics.RUN_EVENTS, task.originId(), json.writeValueAsString(event)).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not report batch " + batchId + ": " + e.getMessage(), e);
        }
    }
}
