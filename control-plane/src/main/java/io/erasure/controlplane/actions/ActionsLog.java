package io.erasure.controlplane.actions;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Who did what, when (DESIGN invariant 10): every registration change, approval, kill-switch flip
 * and run trigger is appended here in the same transaction as the change itself.
 */
@Component
public class ActionsLog {

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final Clock clock;

    public ActionsLog(JdbcTemplate jdbc, JsonMapper json, Clock clock) {
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
    }

    public void record(String actor, String action, String subject, Map<String, ?> details) {
        jdbc.update(
                "INSERT INTO actions_log (actor, action, subject, details, at) VALUES (?, ?, ?, ?::jsonb, ?)",
                actor,
                action,
                subject,
                json.writeValueAsString(details),
                Timestamp.from(clock.instant()));
    }

    /** Newest first; {@code subject} and {@code actor} filter when not null. */
    public List<Action> find(String subject, String actor, int limit) {
        return jdbc.query(
                """
                        SELECT id, actor, action, subject, details::text AS details, at FROM actions_log
                        WHERE (?::text IS NULL OR subject = ?) AND (?::text IS NULL OR actor = ?)
                        ORDER BY id DESC LIMIT ?""",
                (rs, i) -> new Action(
                        rs.getLong("id"),
                        rs.getString("actor"),
                        rs.getString("action"),
                        rs.getString("subject"),
                        json.readValue(rs.getString("details"), Map.class),
                        rs.getTimestamp("at").toInstant()),
                subject,
                subject,
                actor,
                actor,
                Math.max(1, Math.min(limit, 1000)));
    }

    public record Action(long id, String actor, String action, String subject, Map<?, ?> details, Instant at) {}
}
