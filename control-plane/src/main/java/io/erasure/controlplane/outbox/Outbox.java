package io.erasure.controlplane.outbox;

import io.erasure.model.event.EventEnvelope;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.json.JsonMapper;

/**
 * Messages to publish, written in the caller's transaction: they reach Kafka if and only if the
 * state change that caused them commits. {@link OutboxRelay} sends them, right after the commit and
 * again on its timer for anything a crash left behind.
 */
@Component
public class Outbox {

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final Clock clock;
    private final OutboxRelay relay;

    public Outbox(JdbcTemplate jdbc, JsonMapper json, Clock clock, OutboxRelay relay) {
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
        this.relay = relay;
    }

    public void add(String topic, String key, EventEnvelope event) {
        addValue(topic, key, event);
    }

    /** A message that is not an envelope, as JSON. */
    public void addValue(String topic, String key, Object value) {
        addValue(topic, key, value, Map.of());
    }

    /**
     * A message that is not an envelope, as JSON, with Kafka headers (sent as UTF-8), such as a deletion task on
     * {@code erasure.deletion.tasks} with {@code Topics.taskHeaders}.
     */
    public void addValue(String topic, String key, Object value, Map<String, String> headers) {
        jdbc.update(
                "INSERT INTO outbox (topic, message_key, payload, headers, created_at) VALUES (?, ?, ?, ?::jsonb, ?)",
                topic,
                key,
                json.writeValueAsString(value),
                headers.isEmpty() ? null : json.writeValueAsString(headers),
                Timestamp.from(clock.instant()));
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    relay.relayQuietly();
                }
            });
        } else {
            relay.relayQuietly();
        }
    }
}
