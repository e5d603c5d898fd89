package io.erasure.audit.units;

import io.erasure.model.contract.Topics;
import io.erasure.model.event.AuditRequested;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.RunCancelled;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Takes the audit's commands from {@code erasure.run.commands}: {@code AuditRequested} is planned
 * and split into one unit per backup part on {@code erasure.audit.units}; {@code RunCancelled}
 * stops the units of a run. A backup that cannot be audited fails the run at once (AuditFailed
 * with the reason); an unavailable S3 or Kafka is retried by the listener's error handler.
 */
public class RunCommandsListener {

    private static final Logger log = LoggerFactory.getLogger(RunCommandsListener.class);

    private final AuditPlanner planner;
    private final AuditProgress progress;
    private final AuditEvents events;
    private final JsonMapper json;

    public RunCommandsListener(AuditPlanner planner, AuditProgress progress, AuditEvents events, JsonMapper json) {
        this.planner = planner;
        this.progress = progress;
        this.events = events;
        this.json = json;
    }

    @KafkaListener(topics = Topics.RUN_COMMANDS, groupId = "${erasure.audit.commands-group:audit-service}")
    public void onCommand(String message) {
        EventEnvelope command;
        try {
            command = json.readValue(message, EventEnvelope.class);
        } catch (JacksonException e) {
            log.error("unreadable command on {} skipped: {}", Topics.RUN_COMMANDS, e.getOriginalMessage());
            return;
        }
        if (command.payload() instanceof AuditRequested request) {
            audit(command, request);
        } else if (command.payload() instanceof RunCancelled cancelled) {
            progress.markCancelled(command.runId(), cancelled.reason());
        }
    }

    private void audit(EventEnvelope command, AuditRequested request) {
        String runId = command.runId();
        if (progress.completed(runId) || progress.stopped(runId).isPresent()) {
            return;
        }
        AuditPlan plan;
        try {
            plan = planner.plan(runId, request);
        } catch (AuditFailure e) {
            log.warn("audit of run {} failed: {}", runId, e.getMessage());
            progress.markFailed(runId, e.getMessage());
            events.failed(command, runId, request.spec().name(), e.getMessage());
            return;
        }
        if (plan.partCount() == 0) {
            UnitOutcome none = UnitOutcome.sum(List.of());
            events.completed(command, plan, request.spec(), none);
            progress.markCompleted(runId, none);
            return;
        }
        events.publishUnits(command, plan, request.spec());
        log.info(
                "audit of run {} planned: {} units over {} ({} rows), identifiers from {}",
                runId,
                plan.partCount(),
                plan.dataManifestKey(),
                plan.totalRows(),
                plan.identifierManifestKey());
    }
}
