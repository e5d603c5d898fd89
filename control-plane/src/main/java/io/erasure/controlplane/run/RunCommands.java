package io.erasure.controlplane.run;

import io.erasure.controlplane.outbox.Outbox;
import io.erasure.model.contract.Topics;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import java.time.Clock;
import org.springframework.stereotype.Component;

/**
 * Commands to the pipeline on {@code erasure.run.commands}, through the outbox. Each command's event
 * id is derived from (run, command type), so a resend after a crash is recognisably the same command.
 */
@Component
public class RunCommands {

    private final Outbox outbox;
    private final RunAuthorizer authorizer;
    private final Clock clock;

    public RunCommands(Outbox outbox, RunAuthorizer authorizer, Clock clock) {
        this.outbox = outbox;
        this.authorizer = authorizer;
        this.clock = clock;
    }

    /** Sends {@code run}'s signed {@link DeletionAuthorized} ({@link RunAuthorizer}). */
    public void authorize(RunRecord run, DeletionAuthorized.Basis basis, String authorizedBy) {
        send(run.id(), authorizer.authorize(run, basis, authorizedBy));
    }

    public void send(String runId, EventPayload command) {
        EventEnvelope envelope = EventEnvelope.of(
                        command, runId, DeterministicId.nameBasedUuid("run-chain", runId), clock)
                .withEventId(
                        DeterministicId.nameBasedUuid("run-command", runId, EventPayload.typeName(command.getClass())));
        outbox.add(Topics.RUN_COMMANDS, Topics.runKey(RunId.of(runId)), envelope);
    }
}
