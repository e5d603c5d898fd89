package io.erasure.deletion.control;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.run.RunId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The kill switches and cancellations of the compacted {@code erasure.control} topic. Every replica
 * reads the whole topic with a group of its own (from the start on every boot), so it knows the current
 * state before deleting and sees each flip within a poll.
 */
@Component
public class ControlState {

    private static final Logger log = LoggerFactory.getLogger(ControlState.class);

    private final Map<String, ControlSignal> signals = new ConcurrentHashMap<>();
    private final JsonMapper json;

    public ControlState(JsonMapper json) {
        this.json = json;
    }

    @KafkaListener(topics = Topics.CONTROL, groupId = "deletion-control-${random.uuid}",
            properties = {"auto.offset.reset=earliest", "enable.auto.commit=false"})
    public void onSignal(String message) {
        ControlSignal signal = json.readValue(message, EventEnvelope.class).payloadAs(ControlSignal.class);
        signals.put(signal.scope(), signal);
        log.info("control: {} is {} ({} by {})", signal.scope(), signal.active() ? "STOPPED" : "running", signal.reason(),
                signal.actor());
    }

    /** True while the global switch or the dataset's switch is on. */
    public boolean stopped(String dataset) {
        return active(ControlSignal.GLOBAL) || active(dataset);
    }

    public boolean cancelled(String dataset, RunId runId) {
        ControlSignal signal = signals.get(dataset);
        return runId != null && signal != null && signal.cancels(runId);
    }

    private boolean active(String scope) {
        ControlSignal signal = signals.get(scope);
        return signal != null && signal.active();
    }
}
