package io.erasure.deletion.control;

import io.erasure.model.event.ControlSignal;
import io.erasure.model.run.RunId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The newest signed control signal this service applied, per scope, with the message it came in, in its PostgreSQL
 * schema ({@code control_sequences}): what {@link ControlState} starts from before it reads {@code erasure.control}, so
 * a replayed older signal (the only message compaction may leave of its scope) never wins over one applied before a
 * restart, and what replicas share, so none steps back behind another. A scope's row only ever moves to a larger
 * sequence, whichever replica writes and in whatever order.
 */
@Component
public class ControlStore {

    private static final TypeReference<List<String>> RUN_IDS = new TypeReference<>() {};

    private final JdbcTemplate jdbc;
    private final JsonMapper json;

    public ControlStore(JdbcTemplate jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /**
     * A signed signal applied from the message at {@code offset} of {@code partition} of {@code topic}, keyed
     * {@code key}.
     */
    public record Applied(ControlSignal signal, String topic, int partition, String key, long offset) {

        public Applied {
            Objects.requireNonNull(signal, "signal");
            Objects.requireNonNull(topic, "topic");
        }

        public long sequence() {
            return signal.sequence();
        }

        /** True if the message at {@code offset} of this key's partition is this one or came before it. */
        boolean supersedes(String topic, int partition, String key, long offset) {
            return this.topic.equals(topic)
                    && this.partition == partition
                    && Objects.equals(this.key, key)
                    && offset <= this.offset;
        }
    }

    /**
     * Records {@code applied} (a signed signal) as its scope's newest, unless the store holds a newer one already;
     * returns the scope's newest stored afterwards: {@code applied}, or the newer one that stays.
     */
    public Applied recordNewest(Applied applied) {
        ControlSignal signal = applied.signal();
        if (signal.keyId() == null || signal.signature() == null) {
            throw new IllegalArgumentException("only signed control signals are stored, not " + signal);
        }
        int written = jdbc.update(
                """
                        INSERT INTO control_sequences AS stored
                            (scope, sequence, active, cancelled_runs, actor, reason, key_id, signature, message_topic,
                             message_partition, message_key, message_offset, applied_at)
                        VALUES (?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?, now())
                        ON CONFLICT (scope) DO UPDATE SET sequence = excluded.sequence, active = excluded.active,
                            cancelled_runs = excluded.cancelled_runs, actor = excluded.actor, reason = excluded.reason,
                            key_id = excluded.key_id, signature = excluded.signature,
                            message_topic = excluded.message_topic, message_partition = excluded.message_partition,
                            message_key = excluded.message_key, message_offset = excluded.message_offset,
                            applied_at = excluded.applied_at
                        WHERE stored.sequence < excluded.sequence""",
                signal.scope(),
                signal.sequence(),
                signal.active(),
                json.writeValueAsString(
                        signal.cancelledRuns().stream().map(RunId::value).toList()),
                signal.actor(),
                signal.reason(),
                signal.keyId(),
                signal.signature(),
                applied.topic(),
                applied.partition(),
                applied.key(),
                applied.offset());
        if (written == 1) {
            return applied;
        }
        return find(signal.scope())
                .orElseThrow(() -> new IllegalStateException(
                        "control_sequences holds no row for " + signal.scope() + " although it refused to write one"));
    }

    public Optional<Applied> find(String scope) {
        return jdbc.query("SELECT * FROM control_sequences WHERE scope = ?", this::applied, scope).stream()
                .findFirst();
    }

    /** Every scope's newest stored signal. */
    public List<Applied> all() {
        return jdbc.query("SELECT * FROM control_sequences ORDER BY scope", this::applied);
    }

    private Applied applied(ResultSet rs, int row) throws SQLException {
        List<RunId> cancelled = json.readValue(rs.getString("cancelled_runs"), RUN_IDS).stream()
                .map(RunId::of)
                .toList();
        ControlSignal signal = new ControlSignal(
                rs.getString("scope"),
                rs.getBoolean("active"),
                cancelled,
                rs.getString("actor"),
                rs.getString("reason"),
                rs.getLong("sequence"),
                rs.getString("key_id"),
                rs.getString("signature"));
        return new Applied(
                signal,
                rs.getString("message_topic"),
                rs.getInt("message_partition"),
                rs.getString("message_key"),
                rs.getLong("message_offset"));
    }
}
