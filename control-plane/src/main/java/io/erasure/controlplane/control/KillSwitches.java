package io.erasure.controlplane.control;

import io.erasure.support.access.Caller;
import io.erasure.support.access.Role;
import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.controlplane.api.ApiProblem;
import io.erasure.controlplane.outbox.Outbox;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.contract.Topics;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.run.RunId;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;
import io.erasure.model.trust.SigningKey;
import io.erasure.support.trust.SigningProperties;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Kill switches, one per dataset and one global, published on the compacted {@code erasure.control}
 * topic: each message carries the whole state of its scope (switch and cancelled runs), so a deletion
 * replica that starts reads the current state, and one that runs sees a flip within seconds.
 *
 * <p>Each message is signed with the control plane's key ({@code erasure.signing.private-key}) and numbered by when it
 * was issued (microseconds, never twice the same in one process): deletion applies only signed signals, and never an
 * older one over a newer, so a forged or replayed "lift" lifts nothing.
 */
@Service
public class KillSwitches {

    private final JdbcTemplate jdbc;
    private final Outbox outbox;
    private final ActionsLog actions;
    private final SigningKey key;
    private final Clock clock;
    private final AtomicLong lastSequence = new AtomicLong();

    public KillSwitches(JdbcTemplate jdbc, Outbox outbox, ActionsLog actions, SigningProperties signing, Clock clock) {
        this.jdbc = jdbc;
        this.outbox = outbox;
        this.actions = actions;
        this.key = signing.signingKey();
        this.clock = clock;
    }

    @Transactional
    public KillSwitch flip(String scope, boolean active, String reason, Caller caller) {
        if (!caller.has(Role.OPERATOR)) {
            throw ApiProblem.forbidden("only an OPERATOR may flip a kill switch");
        }
        if (!ControlSignal.GLOBAL.equals(scope)) {
            Names.datasetName("scope", scope);
            Integer known = jdbc.queryForObject("SELECT count(*) FROM datasets WHERE name = ?", Integer.class, scope);
            if (known == null || known == 0) {
                throw ApiProblem.notFound("dataset " + Require.echo(scope) + " (kill switch scopes are 'global' or a dataset name)");
            }
        }
        if (reason == null || reason.isBlank()) {
            throw ApiProblem.badRequest("reason is required: say why deletion is stopped or resumed");
        }
        Instant now = clock.instant();
        jdbc.update("""
                        INSERT INTO kill_switches (scope, active, changed_by, changed_at, reason) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (scope) DO UPDATE SET active = excluded.active, changed_by = excluded.changed_by,
                                                          changed_at = excluded.changed_at, reason = excluded.reason""",
                scope, active, caller.name(), Timestamp.from(now), reason);
        publish(scope, active, cancelledRuns(scope), caller.name(), reason);
        actions.record(caller.name(), active ? "kill-switch.on" : "kill-switch.off", "kill-switch:" + scope,
                Map.of("reason", reason));
        return new KillSwitch(scope, active, caller.name(), now, reason);
    }

    /** Re-publishes a dataset's control state with a newly cancelled run, so deletion drops its tasks. */
    public void announceCancellation(String dataset, RunId runId, String actor, String reason) {
        publish(dataset, isActive(dataset), cancelledRuns(dataset), actor, reason);
    }

    public boolean isActive(String scope) {
        return jdbc.query("SELECT active FROM kill_switches WHERE scope = ?", (rs, i) -> rs.getBoolean(1), scope)
                .stream().findFirst().orElse(false);
    }

    public List<KillSwitch> list() {
        return jdbc.query("SELECT * FROM kill_switches ORDER BY scope",
                (rs, i) -> new KillSwitch(rs.getString("scope"), rs.getBoolean("active"), rs.getString("changed_by"),
                        rs.getTimestamp("changed_at").toInstant(), rs.getString("reason")));
    }

    private List<RunId> cancelledRuns(String scope) {
        if (ControlSignal.GLOBAL.equals(scope)) {
            return List.of();
        }
        // the most recent cancellations: enough for deletion replicas to drop tasks still queued
        return jdbc.query("SELECT id FROM runs WHERE dataset = ? AND state = 'CANCELLED' ORDER BY updated_at DESC LIMIT 50",
                (rs, i) -> RunId.of(rs.getString(1)), scope);
    }

    private void publish(String scope, boolean active, List<RunId> cancelled, String actor, String reason) {
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
        long sequence = lastSequence.updateAndGet(last -> Math.max(last + 1, now));
        ControlSignal signal = new ControlSignal(scope, active, cancelled, actor, reason).signed(sequence, key);
        outbox.add(Topics.CONTROL, Topics.controlKey(signal), EventEnvelope.startChain(signal, null, clock));
    }

    public record KillSwitch(String scope, boolean active, String changedBy, Instant changedAt, String reason) {
    }
}
