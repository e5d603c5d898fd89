package io.erasure.controlplane.run;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.EventEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** Feeds {@code erasure.run.events} into {@link RunProgress}. */
@Component
public class RunEventsListener {

    private static final Logger log = LoggerFactory.getLogger(RunEventsListener.class);

    private final RunProgress progress;
    private final JsonMapper json;

    public RunEventsListener(RunProgress progress, JsonMapper json) {
        this.progress = progress;
        this.json = json;
    }

    @KafkaListener(topics = Topics.RUN_EVENTS, groupId = "${erasure.control-plane.group:control-plane}")
    public void onEvent(String message) {
        EventEnvelope event;
        try {
            event = json.readValue(message, EventEnvelope.class);
        } catch (JacksonException e) {
            // a malformed event can never become valid: skip it loudly rather than block the partition
            log.error("unreadable event on {} skipped: {}", Topics.RUN_EVENTS, e.getOriginalMessage());
            return;
        }
        progress.apply(event);
    }
}
