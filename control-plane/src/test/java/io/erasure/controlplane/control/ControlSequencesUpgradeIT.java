package io.erasure.controlplane.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The migration that numbers control signals in PostgreSQL (V12) starts each scope from what the outbox shows was
 * published before it: the largest sequence, and the key of the newest message (none: unsigned). Migrates a schema
 * of its own to V11, publishes the old way, then migrates to V12.
 */
class ControlSequencesUpgradeIT {

    private static final String SCHEMA = "control_plane_sequences_" + (System.nanoTime() % 100_000);

    @Test
    void eachScopeStartsFromTheLargestSequenceAndTheKeyOfItsNewestMessage() {
        PostgresEngine postgres = LocalEngines.postgres();
        DriverManagerDataSource dataSource =
                new DriverManagerDataSource(postgres.jdbcUrl(), postgres.username(), postgres.password());
        dataSource.setSchema(SCHEMA);
        Flyway.configure()
                .dataSource(dataSource)
                .schemas(SCHEMA)
                .target("11")
                .load()
                .migrate();
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        // before signing: no sequence, no key
        message(jdbc, "erasure.control", "profiles", """
                {"scope": "profiles", "active": true, "cancelledRuns": [], "actor": "op", "reason": "incident"}""");
        // signed, the newest with a smaller number than the one before it (another replica's clock)
        message(jdbc, "erasure.control", "global", signed("global", 1_800_000_000_000_000L, "old-key"));
        message(jdbc, "erasure.control", "global", signed("global", 1_700_000_000_000_000L, "control-plane-local"));
        // signed, then a message before signing existed cannot come after it; another topic's messages do not count
        message(jdbc, "erasure.control", "orders", signed("orders", 42, "control-plane-local"));
        message(jdbc, "erasure.run.commands", "run-1", "{\"payload\": {\"sequence\": 99}}");

        Flyway.configure()
                .dataSource(dataSource)
                .schemas(SCHEMA)
                .target("12")
                .load()
                .migrate();

        List<Map<String, Object>> rows =
                jdbc.queryForList("SELECT scope, sequence, key_id FROM control_sequences ORDER BY scope");
        assertThat(rows)
                .containsExactly(
                        row("global", 1_800_000_000_000_000L, "control-plane-local"),
                        row("orders", 42L, "control-plane-local"),
                        row("profiles", 0L, null));
        jdbc.execute("DROP SCHEMA " + SCHEMA + " CASCADE");
    }

    private static Map<String, Object> row(String scope, long sequence, String keyId) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("scope", scope);
        row.put("sequence", sequence);
        row.put("key_id", keyId);
        return row;
    }

    private static String signed(String scope, long sequence, String keyId) {
        return "{\"scope\": \"" + scope
                + "\", \"active\": false, \"cancelledRuns\": [], \"actor\": \"op\", \"reason\": \"ok\","
                + " \"sequence\": " + sequence + ", \"keyId\": \"" + keyId + "\", \"signature\": \"c2ln\"}";
    }

    private static void message(JdbcTemplate jdbc, String topic, String key, String payload) {
        String envelope = payload.startsWith("{\"payload\"")
                ? payload
                : "{\"eventId\": \"" + UUID.randomUUID()
                        + "\", \"eventType\": \"ControlSignal\", \"schemaVersion\": 1,"
                        + " \"occurredAt\": \"2026-11-30T10:00:00Z\", \"originChainId\": \""
                        + UUID.randomUUID()
                        + "\", \"runId\": null, \"payload\": " + payload + "}";
        jdbc.update(
                "INSERT INTO outbox (topic, message_key, payload, created_at, sent_at) VALUES (?, ?, ?, now(), now())",
                topic,
                key,
                envelope);
    }
}
