package io.erasure.controlplane.refused;

import io.erasure.model.task.RefusedTask;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * The refused tasks per run and per forward request they claim ({@code refused_task_totals}, V13), each refusal counted
 * once ({@code refused_task_ids}). A run's totals are also kept in its {@code counts.refusedTasks}, so the run view
 * shows them; nothing else of the run or request changes.
 */
@Repository
public class RefusedTaskTotals {

    static final String RUN = "RUN";
    static final String REQUEST = "REQUEST";

    private static final String COLUMNS = "origin_id, refused, latest_task_id, latest_kind, latest_reason_class,"
            + " latest_reason, latest_key_id, latest_at";

    private final JdbcTemplate jdbc;
    private final JsonMapper json;

    public RefusedTaskTotals(JdbcTemplate jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** What {@link #count} did with a refusal. */
    public enum Outcome {
        /** Added to its run's or request's totals. */
        COUNTED,
        /** Counted before (the same refusal, redelivered). */
        DUPLICATE,
        /** It claims a run or request that does not exist here: not kept. */
        UNKNOWN_ORIGIN
    }

    /** Adds {@code refused} to the totals of the run or request it claims, once. */
    @Transactional
    public Outcome count(RefusedTask refused, Instant now) {
        String kind = refused.runId() != null ? RUN : REQUEST;
        String origin = refused.originId();
        Boolean exists = jdbc.queryForObject(
                kind.equals(RUN)
                        ? "SELECT EXISTS (SELECT 1 FROM runs WHERE id = ?)"
                        : "SELECT EXISTS (SELECT 1 FROM deletion_requests WHERE id = ?)",
                Boolean.class,
                origin);
        if (!Boolean.TRUE.equals(exists)) {
            return Outcome.UNKNOWN_ORIGIN;
        }
        if (jdbc.update(
                        "INSERT INTO refused_task_ids (refusal_id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                        refused.refusalId(),
                        Timestamp.from(now))
                == 0) {
            return Outcome.DUPLICATE;
        }
        RefusedTasks totals = jdbc.queryForObject(
                """
                        INSERT INTO refused_task_totals AS t (origin_kind, origin_id, refused, latest_task_id,
                                                              latest_kind, latest_reason_class, latest_reason,
                                                              latest_key_id, latest_at)
                        VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (origin_kind, origin_id) DO UPDATE SET
                            refused = t.refused + 1,
                            latest_task_id = CASE WHEN excluded.latest_at >= t.latest_at
                                                  THEN excluded.latest_task_id ELSE t.latest_task_id END,
                            latest_kind = CASE WHEN excluded.latest_at >= t.latest_at
                                               THEN excluded.latest_kind ELSE t.latest_kind END,
                            latest_reason_class = CASE WHEN excluded.latest_at >= t.latest_at
                                                       THEN excluded.latest_reason_class ELSE t.latest_reason_class END,
                            latest_reason = CASE WHEN excluded.latest_at >= t.latest_at
                                                 THEN excluded.latest_reason ELSE t.latest_reason END,
                            latest_key_id = CASE WHEN excluded.latest_at >= t.latest_at
                                                 THEN excluded.latest_key_id ELSE t.latest_key_id END,
                            latest_at = greatest(excluded.latest_at, t.latest_at)
                        RETURNING\s""" + COLUMNS,
                (rs, i) -> totals(rs),
                kind,
                origin,
                refused.taskId(),
                refused.kind().name(),
                refused.reasonClass(),
                refused.reason(),
                refused.keyId(),
                Timestamp.from(refused.receivedAt()));
        if (kind.equals(RUN)) {
            jdbc.update(
                    "UPDATE runs SET counts = counts || jsonb_build_object('refusedTasks', ?::jsonb) WHERE id = ?",
                    json.writeValueAsString(totals.asCounts()),
                    origin);
        }
        return Outcome.COUNTED;
    }

    public Optional<RefusedTasks> ofRun(String runId) {
        return of(RUN, List.of(runId)).values().stream().findFirst();
    }

    public Optional<RefusedTasks> ofRequest(String requestId) {
        return of(REQUEST, List.of(requestId)).values().stream().findFirst();
    }

    /** The totals of those of {@code requestIds} that have any, by request id. */
    public Map<String, RefusedTasks> ofRequests(Collection<String> requestIds) {
        return of(REQUEST, requestIds);
    }

    /** Forgets refusal ids older than {@code before} and the totals of requests no longer kept; returns how many. */
    @Transactional
    public int prune(Instant before) {
        int ids = jdbc.update("DELETE FROM refused_task_ids WHERE seen_at < ?", Timestamp.from(before));
        int requests = jdbc.update("""
                DELETE FROM refused_task_totals t WHERE t.origin_kind = 'REQUEST'
                    AND NOT EXISTS (SELECT 1 FROM deletion_requests r WHERE r.id = t.origin_id)""");
        return ids + requests;
    }

    private Map<String, RefusedTasks> of(String kind, Collection<String> ids) {
        Map<String, RefusedTasks> found = new HashMap<>();
        if (ids.isEmpty()) {
            return found;
        }
        String placeholders = ids.stream().map(id -> "?").collect(Collectors.joining(", "));
        Object[] args = new Object[ids.size() + 1];
        args[0] = kind;
        int i = 1;
        for (String id : ids) {
            args[i++] = id;
        }
        jdbc.query(
                "SELECT " + COLUMNS + " FROM refused_task_totals WHERE origin_kind = ? AND origin_id IN ("
                        + placeholders + ")",
                rs -> {
                    found.put(rs.getString("origin_id"), totals(rs));
                },
                args);
        return found;
    }

    private static RefusedTasks totals(ResultSet rs) throws SQLException {
        return new RefusedTasks(
                rs.getLong("refused"),
                rs.getString("latest_reason"),
                rs.getString("latest_reason_class"),
                rs.getString("latest_kind"),
                rs.getString("latest_task_id"),
                rs.getString("latest_key_id"),
                rs.getTimestamp("latest_at").toInstant());
    }
}
