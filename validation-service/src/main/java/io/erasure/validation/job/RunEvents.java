package io.erasure.validation.job;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.SigningKey;
import io.erasure.support.trust.RunEventSealing;
import io.erasure.support.trust.SigningProperties;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Validation's reports to the control plane on {@code erasure.run.events}. The event id is derived
 * from (run, event type), so a redo after a crash sends the same event and the control plane
 * applies it once. Each is sealed with this service's key ({@code erasure.signing.*}), which the control plane trusts
 * for validation's results only; without a key the service refuses to start, naming the property.
 */
@Component
public class RunEvents {

    private final KafkaTemplate<String, String> kafka;
    private final JsonMapper json;
    private final Clock clock;
    private final SigningKey key;

    public RunEvents(KafkaTemplate<String, String> kafka, JsonMapper json, Clock clock, SigningProperties signing) {
        this.kafka = kafka;
        this.json = json;
        this.clock = clock;
        this.key = RunEventSealing.key(signing, "validation results");
    }

    public void send(String runId, EventPayload payload) {
        String type = EventPayload.typeName(payload.getClass());
        EventEnvelope event = EventEnvelope.of(payload, runId, DeterministicId.nameBasedUuid("run-chain", runId), clock)
                .withEventId(DeterministicId.nameBasedUuid("validation-event", runId, type))
                .sealedWith(key);
        try {
            kafka.send(Topics.RUN_EVENTS, Topics.runKey(RunId.of(runId)), json.writeValueAsString(event))
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not send " + type + " for run " + runId + ": " + e.getMessage(), e);
        }
    }
}
