package io.erasure.deletion.lookup;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The keys each lookup batch resolved, so a redelivered lookup publishes the very same tasks (table
 * {@code lookup_resolutions}). The first resolution stored wins; entries older than the retention go.
 */
class LookupResolutions {

    private static final TypeReference<List<Map<String, Object>>> KEYS = new TypeReference<>() {};

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final Duration retention;
    private final Clock clock;

    LookupResolutions(JdbcTemplate jdbc, JsonMapper json, Duration retention, Clock clock) {
        this.jdbc = jdbc;
        this.json = json;
        this.retention = retention;
        this.clock = clock;
    }

    Optional<List<Map<String, Object>>> find(String batchId) {
        return jdbc
                .query(
                        "SELECT keys::text FROM lookup_resolutions WHERE batch_id = ?",
                        (rs, i) -> json.readValue(rs.getString(1), KEYS),
                        batchId)
                .stream()
                .findFirst();
    }

    /** Stores {@code keys} unless a resolution of the batch is already stored; returns the stored one. */
    List<Map<String, Object>> keep(String batchId, List<Map<String, Object>> keys) {
        jdbc.update(
                "DELETE FROM lookup_resolutions WHERE resolved_at < ?",
                Timestamp.from(clock.instant().minus(retention)));
        jdbc.update(
                "INSERT INTO lookup_resolutions (batch_id, keys, resolved_at) VALUES (?, ?::jsonb, ?) ON CONFLICT"
                        + " DO NOTHING",
                batchId,
                json.writeValueAsString(keys),
                Timestamp.from(clock.instant()));
        return find(batchId).orElse(keys);
    }
}
