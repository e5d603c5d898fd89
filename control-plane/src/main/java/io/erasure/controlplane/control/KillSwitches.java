package io.erasure.controlplane.control;

import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.controlplane.outbox.Outbox;
import io.erasure.controlplane.refusal.Refusal;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.contract.Topics;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.SigningKey;
import io.erasure.support.access.Caller;
import io.erasure.support.access.Role;
import io.erasure.support.trust.SigningProperties;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Kill switches, one per dataset and one global, published on the compacted {@code erasure.control}
 * topic: each message carries the whole state of its scope (switch and cancelled runs), so a deletion
 * replica that starts reads the current state, and one that runs sees a flip within seconds.
 *
 * <p>Each message is signed with the control plane's key ({@code erasure.signing.private-key}) and numbered: deletion
 * applies only signed signals, and never an older one over a newer, so a forged or replayed "lift" lifts nothing. The
 * number ({@code control_sequences}) is drawn from PostgreSQL under the scope's row lock, in the transaction that
 * changes the scope and adds its message to the outbox: {@code greatest(last + 1, now in microseconds)}, so a scope's
 * numbers only grow whatever the clocks of the replicas and restarts, and every change reads the scope's state (switch
 * and cancelled runs) after the change before it committed: two concurrent changes publish in number order, the later
 * carrying both.
 */
@Service
public class KillSwitches {

    private static final String UPSERT_SWITCH = """
            INSERT INTO kill_switches (scope, active, changed_by, changed_at, reason) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (scope) DO UPDATE SET active = excluded.active, changed_by = excluded.changed_by,
                                              changed_at = excluded.changed_at, reason = excluded.reason""";

    private static final Logger log = LoggerFactory.getLogger(KillSwitches.class);

    /** The actor of a scope's state re-published signed at start-up when no operator flip is on record. */
    static final String REPUBLISHING_ACTOR = "control-plane";

    private final JdbcTemplate jdbc;
    private final Outbox outbox;
    private final ActionsLog actions;
    private final SigningKey key;
    private final Clock clock;

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
            throw Refusal.forbidden("only an OPERATOR may flip a kill switch");
        }
        if (!ControlSignal.GLOBAL.equals(scope)) {
            Names.datasetName("scope", scope);
            Integer known = jdbc.queryForObject("SELECT count(*) FROM datasets WHERE name = ?", Integer.class, scope);
            if (known == null || known == 0) {
                throw Refusal.notFound(
                        "dataset " + Require.echo(scope) + " (kill switch scopes are 'global' or a dataset name)");
            }
        }
        if (reason == null || reason.isBlank()) {
            throw Refusal.badRequest("reason is required: say why deletion is stopped or resumed");
        }
        long sequence = nextSequence(scope);
        Instant now = clock.instant();
        jdbc.update(UPSERT_SWITCH, scope, active, caller.name(), Timestamp.from(now), reason);
        publish(scope, active, cancelledRuns(scope), caller.name(), reason, sequence);
        actions.record(
                caller.name(),
                active ? "kill-switch.on" : "kill-switch.off",
                "kill-switch:" + scope,
                Map.of("reason", reason));
        return new KillSwitch(scope, active, caller.name(), now, reason);
    }

    /**
     * Re-publishes a dataset's control state with a newly cancelled run, so deletion drops its tasks. Joins the
     * caller's transaction (the one that cancelled the run): the dataset's switch and cancelled runs are read under its
     * lock.
     */
    @Transactional
    public void announceCancellation(String dataset, RunId runId, String actor, String reason) {
        long sequence = nextSequence(dataset);
        publish(dataset, isActive(dataset), cancelledRuns(dataset), actor, reason, sequence);
    }

    /**
     * Publishes {@code scope}'s current state again, signed with this control plane's key, unless its newest message
     * is signed with that key already (another replica did it meanwhile); true if it published. For scopes whose
     * newest message was published before signals were signed, which deletion reads as stopped, or signed with a key
     * since rotated out.
     */
    @Transactional
    public boolean republish(String scope) {
        List<String> signedWith = jdbc.query(
                "SELECT key_id FROM control_sequences WHERE scope = ? FOR UPDATE", (rs, i) -> rs.getString(1), scope);
        if (signedWith.isEmpty() || key.keyId().equals(signedWith.get(0))) {
            return false; // never published, or signed with this key already
        }
        long sequence = nextSequence(scope);
        List<KillSwitch> recorded =
                jdbc.query("SELECT * FROM kill_switches WHERE scope = ?", KillSwitches::killSwitch, scope);
        KillSwitch current = recorded.isEmpty() ? null : recorded.get(0);
        publish(
                scope,
                current != null && current.active(),
                cancelledRuns(scope),
                current == null ? REPUBLISHING_ACTOR : current.changedBy(),
                current == null ? "control state re-published, signed" : current.reason(),
                sequence);
        log.info(
                "control state of {} re-published signed with key {} (its newest message was {})",
                scope,
                key.keyId(),
                signedWith.get(0) == null ? "unsigned" : "signed with key " + signedWith.get(0));
        return true;
    }

    /**
     * The scopes whose newest control message is not signed with this control plane's key (every scope ever published
     * has a row in {@code control_sequences}: V12 made one for each message published before it).
     */
    public List<String> scopesNotSignedWithOwnKey() {
        return jdbc.queryForList(
                "SELECT scope FROM control_sequences WHERE key_id IS DISTINCT FROM ? ORDER BY scope",
                String.class,
                key.keyId());
    }

    public boolean isActive(String scope) {
        return jdbc
                .query("SELECT active FROM kill_switches WHERE scope = ?", (rs, i) -> rs.getBoolean(1), scope)
                .stream()
                .findFirst()
                .orElse(false);
    }

    public List<KillSwitch> list() {
        return jdbc.query("SELECT * FROM kill_switches ORDER BY scope", KillSwitches::killSwitch);
    }

    private static KillSwitch killSwitch(ResultSet rs, int row) throws SQLException {
        return new KillSwitch(
                rs.getString("scope"),
                rs.getBoolean("active"),
                rs.getString("changed_by"),
                rs.getTimestamp("changed_at").toInstant(),
                rs.getString("reason"));
    }

    private List<RunId> cancelledRuns(String scope) {
        if (ControlSignal.GLOBAL.equals(scope)) {
            return List.of();
        }
        // the most recent cancellations: enough for deletion replicas to drop tasks still queued
        return jdbc.query(
                "SELECT id FROM runs WHERE dataset = ? AND state = 'CANCELLED' ORDER BY updated_at DESC LIMIT 50",
                (rs, i) -> RunId.of(rs.getString(1)),
                scope);
    }

    /**
     * The scope's next sequence: larger than every one it had, and than now in microseconds. Locks the scope's row
     * until the transaction ends, so what the caller reads after this includes every change of the scope numbered
     * before it.
     */
    private long nextSequence(String scope) {
        Instant now = clock.instant();
        Long sequence = jdbc.queryForObject(
                """
                        INSERT INTO control_sequences AS stored (scope, sequence, key_id, published_at)
                        VALUES (?, ?, ?, ?)
                        ON CONFLICT (scope) DO UPDATE SET sequence = greatest(stored.sequence + 1, excluded.sequence),
                                                          key_id = excluded.key_id, published_at = excluded.published_at
                        RETURNING sequence""",
                Long.class,
                scope,
                Math.max(0, ChronoUnit.MICROS.between(Instant.EPOCH, now)),
                key.keyId(),
                Timestamp.from(now));
        return Require.nonNull("control sequence of " + scope, sequence);
    }

    private void publish(
            String scope, boolean active, List<RunId> cancelled, String actor, String reason, long sequence) {
        ControlSignal signal = new ControlSignal(scope, active, cancelled, actor, reason).signed(sequence, key);
        outbox.add(Topics.CONTROL, Topics.controlKey(signal), EventEnvelope.startChain(signal, null, clock));
    }

    public record KillSwitch(String scope, boolean active, String changedBy, Instant changedAt, String reason) {}
}
