package io.erasure.validation.job;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.RunCancelled;
import io.erasure.model.event.ValidationFailed;
import io.erasure.model.event.ValidationRequested;
import io.erasure.support.kafka.ListenerRetries;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Takes validation's commands from {@code erasure.run.commands}. A store that is unavailable right now
 * is retried (the listener's error handler backs off and redelivers); anything else fails the step with
 * its message, so the control plane fails the run and nothing downstream proceeds.
 */
@Component
public class RunCommandsListener {

    private static final Logger log = LoggerFactory.getLogger(RunCommandsListener.class);

    private final ValidationJobs jobs;
    private final RunEvents events;
    private final JsonMapper json;

    public RunCommandsListener(ValidationJobs jobs, RunEvents events, JsonMapper json) {
        this.jobs = jobs;
        this.events = events;
        this.json = json;
    }

    @KafkaListener(topics = Topics.RUN_COMMANDS, groupId = "${erasure.validation.group:validation-service}")
    public void onCommand(String message) {
        EventEnvelope command;
        try {
            command = json.readValue(message, EventEnvelope.class);
        } catch (JacksonException e) {
            log.error("unreadable command on {} skipped: {}", Topics.RUN_COMMANDS, e.getOriginalMessage());
            return;
        }
        String runId = command.runId();
        if (command.payload() instanceof ValidationRequested request) {
            run(runId, request.spec().name(), () -> jobs.validate(runId, request));
        } else if (command.payload() instanceof DeletionAuthorized authorized) {
            run(runId, authorized.dataset(), () -> jobs.publish(runId, authorized));
        } else if (command.payload() instanceof RunCancelled cancelled) {
            jobs.cancelled(runId, cancelled.dataset());
        }
    }

    /**
     * Runs one step of a run: an outage is re-thrown for the error handler to retry, any other failure fails the run.
     */
    void run(String runId, String dataset, Runnable job) {
        try {
            job.run();
        } catch (RuntimeException e) {
            if (ListenerRetries.outage(e)) {
                // S3, the database or a store is away: retried until it is back, never failing the run for a blip
                throw e;
            }
            log.error("validation step of run {} failed", runId, e);
            events.send(runId, new ValidationFailed(dataset, String.valueOf(e.getMessage())));
        }
    }
}
