package io.erasure.controlplane.forward;

import io.erasure.model.key.DeterministicId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The {@code deletion_requests} table (partitioned by month on {@code created_at}; ids are looked up by index). */
@Component
public class DeletionRequests {

    private static final String UNRESOLVED_AFTER = """
            SELECT * FROM deletion_requests
            WHERE state = 'TOMBSTONED' AND published_at < ? AND (published_at, id) > (?, ?)
            ORDER BY published_at, id LIMIT ?""";

    private static final TypeReference<Map<String, List<String>>> CHILD_IDS = new TypeReference<>() {};

    private final JdbcTemplate jdbc;
    private final JsonMapper json;

    public DeletionRequests(JdbcTemplate jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** {@code fwd-} + 32 hex characters derived from the event id: a redelivered event names the same request. */
    static String idFor(UUID eventId) {
        return "fwd-"
                + DeterministicId.sha256Hex("forward-request", eventId.toString())
                        .substring(0, 32);
    }

    void insert(DeletionRequest r) {
        jdbc.update(
                """
                        INSERT INTO deletion_requests (id, created_at, aggregate_type, aggregate_id, version, state,
                            tombstoned_at, published_at, event_id, origin_chain_id, child_ids, requested_by,
                            held_reason,
                            updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)""",
                r.id(),
                ts(r.createdAt()),
                r.aggregateType(),
                r.aggregateId(),
                r.version(),
                r.state().name(),
                ts(r.tombstonedAt()),
                ts(r.publishedAt()),
                r.eventId(),
                r.originChainId(),
                json.writeValueAsString(r.childIds()),
                r.requestedBy(),
                r.heldReason(),
                ts(r.createdAt()));
    }

    public Optional<DeletionRequest> find(String id) {
        return jdbc.query("SELECT * FROM deletion_requests WHERE id = ?", this::row, id).stream()
                .findFirst();
    }

    Optional<DeletionRequest> lock(String id) {
        return jdbc.query("SELECT * FROM deletion_requests WHERE id = ? FOR UPDATE", this::row, id).stream()
                .findFirst();
    }

    /** Compare-and-set on the state: false when another transaction moved it first. */
    boolean move(String id, RequestState from, RequestState to, Instant at) {
        return jdbc.update("""
                        UPDATE deletion_requests SET state = ?, updated_at = ?,
                               purged_at = CASE WHEN ? = 'PURGED' THEN ? ELSE purged_at END
                        WHERE id = ? AND state = ?""", to.name(), ts(at), to.name(), ts(at), id, from.name()) == 1;
    }

    boolean approve(String id, String approver, Instant at) {
        return jdbc.update("""
                        UPDATE deletion_requests SET state = 'TOMBSTONED', approved_by = ?, published_at = ?,
                            updated_at = ?
                        WHERE id = ? AND state = 'HELD'""", approver, ts(at), ts(at), id) == 1;
    }

    /** Requests of {@code aggregateType} created after {@code since}: the burst window's volume. */
    long countSince(String aggregateType, Instant since) {
        Long count = jdbc.queryForObject(
                "SELECT count(*) FROM deletion_requests WHERE aggregate_type = ? AND created_at > ?",
                Long.class,
                aggregateType,
                ts(since));
        return count == null ? 0 : count;
    }

    List<DeletionRequest> held(String aggregateType, int limit) {
        return jdbc.query("""
                        SELECT * FROM deletion_requests WHERE state = 'HELD' AND (?::text IS NULL OR aggregate_type = ?)
                        ORDER BY created_at, id LIMIT ?""", this::row, aggregateType, aggregateType, limit);
    }

    /** Newest first; each filter applies when not null. */
    public List<DeletionRequest> list(RequestState state, String aggregateType, String aggregateId, int limit) {
        String s = state == null ? null : state.name();
        return jdbc.query(
                """
                        SELECT * FROM deletion_requests
                        WHERE (?::text IS NULL OR state = ?) AND (?::text IS NULL OR aggregate_type = ?)
                          AND (?::text IS NULL OR aggregate_id = ?)
                        ORDER BY created_at DESC, id DESC LIMIT ?""",
                this::row,
                s,
                s,
                aggregateType,
                aggregateType,
                aggregateId,
                aggregateId,
                Math.max(1, Math.min(limit, 1000)));
    }

    /**
     * TOMBSTONED requests whose tasks went out before {@code publishedBefore}, after the watermark
     * ({@code afterAt}, {@code afterId}) in (published_at, id) order.
     */
    List<DeletionRequest> unresolvedAfter(Instant afterAt, String afterId, Instant publishedBefore, int limit) {
        return jdbc.query(UNRESOLVED_AFTER, this::row, ts(publishedBefore), ts(afterAt), afterId, limit);
    }

    long countUnresolvedBefore(Instant publishedBefore) {
        Long count = jdbc.queryForObject(
                "SELECT count(*) FROM deletion_requests WHERE state = 'TOMBSTONED' AND published_at < ?",
                Long.class,
                ts(publishedBefore));
        return count == null ? 0 : count;
    }

    /** When the oldest TOMBSTONED request was published, if one is. */
    Optional<Instant> oldestUnresolvedPublishedAt() {
        Timestamp oldest = jdbc.queryForObject(
                "SELECT min(published_at) FROM deletion_requests WHERE state = 'TOMBSTONED'", Timestamp.class);
        return Optional.ofNullable(oldest).map(Timestamp::toInstant);
    }

    private DeletionRequest row(ResultSet rs, int i) throws SQLException {
        return new DeletionRequest(
                rs.getString("id"),
                instant(rs, "created_at"),
                rs.getString("aggregate_type"),
                rs.getString("aggregate_id"),
                rs.getLong("version"),
                RequestState.valueOf(rs.getString("state")),
                instant(rs, "tombstoned_at"),
                instant(rs, "published_at"),
                instant(rs, "purged_at"),
                rs.getObject("event_id", UUID.class),
                rs.getObject("origin_chain_id", UUID.class),
                json.readValue(rs.getString("child_ids"), CHILD_IDS),
                rs.getString("requested_by"),
                rs.getString("held_reason"),
                rs.getString("approved_by"));
    }

    static Timestamp ts(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }
}
