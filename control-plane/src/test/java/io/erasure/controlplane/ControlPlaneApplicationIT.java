package io.erasure.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

/** The service starts against real PostgreSQL, Kafka, S3 and reports each of them healthy to an operator. */
class ControlPlaneApplicationIT extends ControlPlaneTestSupport {

    @Test
    void healthIsUpWithEveryEngine() {
        // the components only to an operator: anyone else gets the status alone
        RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .defaultHeaders(h -> h.setBasicAuth("operator", "operator"))
                .build()
                .get()
                .uri("/actuator/health")
                .exchange()
                .expectAll(
                        // the body first: on failure it shows which component is down and why
                        response -> response.expectBody().json("""
                                {"status": "UP", "components": {"db": {"status": "UP"}, "kafka": {"status": "UP"},
                                    "s3": {"status": "UP"}}}
                                """, JsonCompareMode.LENIENT),
                        response -> response.expectStatus().isOk());
    }

    @Test
    void flywayMigratedTheServiceSchema() {
        assertThat(jdbc.queryForList(
                        "SELECT version FROM control_plane.flyway_schema_history"
                                + " WHERE version IS NOT NULL AND success ORDER BY installed_rank",
                        String.class))
                .startsWith("1");
    }

    @Test
    void actionsLogKeepsWhoDidWhatAndWhen() {
        jdbc.update(
                "INSERT INTO control_plane.actions_log (actor, action, subject, details) VALUES (?, ?, ?, ?::jsonb)",
                "alice",
                "dataset.registered",
                "dataset:orders",
                "{\"limit\": 0.01}");

        Map<String, Object> row =
                jdbc.queryForMap("SELECT actor, action, details ->> 'limit' AS limit, at IS NOT NULL AS timestamped"
                        + " FROM control_plane.actions_log WHERE subject = 'dataset:orders'");

        assertThat(row)
                .containsEntry("actor", "alice")
                .containsEntry("action", "dataset.registered")
                .containsEntry("limit", "0.01")
                .containsEntry("timestamped", true);
    }
}
