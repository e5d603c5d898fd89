package io.erasure.controlplane.outbox;

import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends outbox rows to Kafka in id order and marks them sent. One replica relays at a time (a transaction-scoped
 * PostgreSQL advisory lock; the others skip the round): two replicas sending batches side by side would put two
 * messages of one key on their partition out of order, and on the compacted {@code erasure.control} an older state
 * could then be all that compaction keeps of its scope. A crash after the send and before the mark sends it again,
 * which consumers absorb (events carry deterministic ids where a repeat matters).
 */
@Component
public class OutboxRelay {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

    /** The advisory lock the relaying replica holds for its round ({@code pg_try_advisory_xact_lock}). */
    static final long RELAY_LOCK = 0x6572617375726531L; // "erasure1"

    private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {};

    private final JdbcTemplate jdbc;
    private final KafkaTemplate<String, String> kafka;
    private final TransactionTemplate transactions;
    private final JsonMapper json;
    private final Clock clock;

    public OutboxRelay(
            JdbcTemplate jdbc,
            KafkaTemplate<String, String> kafka,
            TransactionTemplate transactions,
            JsonMapper json,
            Clock clock) {
        this.jdbc = jdbc;
        this.kafka = kafka;
        this.transactions = transactions;
        this.json = json;
        this.clock = clock;
    }

    @Scheduled(fixedDelayString = "${erasure.control-plane.outbox-interval:1s}")
    public void relayQuietly() {
        try {
            relay();
        } catch (RuntimeException e) {
            log.warn("outbox relay failed, will retry: {}", e.toString());
        }
    }

    /** Sends what is unsent; returns how many were sent. */
    public synchronized int relay() {
        Integer sent = transactions.execute(status -> {
            if (!Boolean.TRUE.equals(
                    jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class, RELAY_LOCK))) {
                return 0; // another replica is relaying: it sends in id order, and so will this one next round
            }
            List<Row> rows = jdbc.query(
                    """
                            SELECT id, topic, message_key, payload, headers::text AS headers FROM outbox
                            WHERE sent_at IS NULL ORDER BY id LIMIT 200 FOR UPDATE SKIP LOCKED""",
                    (rs, i) -> new Row(
                            rs.getLong("id"),
                            rs.getString("topic"),
                            rs.getString("message_key"),
                            rs.getString("payload"),
                            rs.getString("headers")));
            for (Row row : rows) {
                try {
                    kafka.send(message(row)).get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException("could not send outbox row " + row.id() + " to " + row.topic(), e);
                }
                jdbc.update("UPDATE outbox SET sent_at = ? WHERE id = ?", Timestamp.from(clock.instant()), row.id());
            }
            return rows.size();
        });
        return sent == null ? 0 : sent;
    }

    private ProducerRecord<String, String> message(Row row) {
        ProducerRecord<String, String> message = new ProducerRecord<>(row.topic(), row.key(), row.payload());
        if (row.headers() != null) {
            json.readValue(row.headers(), HEADERS)
                    .forEach((name, value) -> message.headers().add(name, value.getBytes(StandardCharsets.UTF_8)));
        }
        return message;
    }

    private record Row(long id, String topic, String key, String payload, String headers) {}
}
