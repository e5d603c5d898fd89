package io.erasure.controlplane.forward;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.ForwardDeletionRequested;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Forward deletion's Kafka inputs: requests on {@code erasure.forward.requests}, and the batch results
 * of forward tasks on {@code erasure.run.events}, read in a group of its own so that runs and requests
 * keep independent offsets.
 */
@Component
public class ForwardListeners {

    private static final Logger log = LoggerFactory.getLogger(ForwardListeners.class);

    private final ForwardIntake intake;
    private final ForwardProgress progress;
    private final JsonMapper json;

    public ForwardListeners(ForwardIntake intake, ForwardProgress progress, JsonMapper json) {
        this.intake = intake;
        this.progress = progress;
        this.json = json;
    }

    @KafkaListener(topics = Topics.FORWARD_REQUESTS, groupId = "${erasure.control-plane.group:control-plane}-forward")
    public void onRequest(String message) {
        EventEnvelope event = read(Topics.FORWARD_REQUESTS, message);
        if (event == null) {
            return;
        }
        if (!(event.payload() instanceof ForwardDeletionRequested)) {
            log.error(
                    "{} on {} skipped: only ForwardDeletionRequested belongs there",
                    event.eventType(),
                    Topics.FORWARD_REQUESTS);
            return;
        }
        intake.accept(event, false);
    }

    @KafkaListener(topics = Topics.RUN_EVENTS, groupId = "${erasure.control-plane.group:control-plane}-forward")
    public void onBatchEvent(String message) {
        EventEnvelope event = read(Topics.RUN_EVENTS, message);
        if (event != null && event.runId() == null) {
            progress.apply(event); // which checks its seal first (RunEventGate); a run's events are RunProgress's
        }
    }

    private EventEnvelope read(String topic, String message) {
        try {
            return json.readValue(message, EventEnvelope.class);
        } catch (JacksonException | IllegalArgumentException e) {
            // a malformed event can never become valid: skip it loudly rather than block the partition
            log.error("unreadable event on {} skipped: {}", topic, e.getMessage());
            return null;
        }
    }
}
