package io.erasure.controlplane.run;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.EventEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** Feeds {@code erasure.run.events} into {@link RunProgress}; forward deletion's batches are read by its own group. */
@Component
public class RunEventsListener {

    private static final Logger log = LoggerFactory.getLogger(RunEventsListener.class);

    private final RunProgress progress;
    private final JsonMapper json;
    private final RunEventGate gate;

    public RunEventsListener(RunProgress progress, JsonMapper json, RunEventGate gate) {
        this.progress = progress;
        this.json = json;
        this.gate = gate;
    }

    @KafkaListener(topics = Topics.RUN_EVENTS, groupId = "${erasure.control-plane.group:control-plane}")
    public void onEvent(String message) {
        EventEnvelope event;
        try {
            event = json.readValue(message, EventEnvelope.class);
        } catch (JacksonException | IllegalArgumentException e) {
            // a malformed event can never become valid: skip it loudly rather than block the partition
            log.error("unreadable event on {} skipped: {}", Topics.RUN_EVENTS, e.getMessage());
            gate.unreadable();
            return;
        }
        progress.apply(event); // which checks its seal and its run first (RunEventGate)
    }
}
