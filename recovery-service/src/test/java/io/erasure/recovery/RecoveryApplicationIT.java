package io.erasure.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

/** The service starts against real PostgreSQL, Kafka, Cassandra and reports each of them healthy to an operator. */
class RecoveryApplicationIT extends RecoveryTestSupport {

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
                                    "cassandra": {"status": "UP"}}}
                                """, JsonCompareMode.LENIENT),
                        response -> response.expectStatus().isOk());
    }

    @Test
    void flywayMigratedTheServiceSchema() {
        assertThat(jdbc.queryForList(
                        "SELECT version FROM recovery.flyway_schema_history"
                                + " WHERE version IS NOT NULL AND success ORDER BY installed_rank",
                        String.class))
                .startsWith("1", "2");
    }

    @Test
    void recoveryRequestsRecordWhoAskedForWhat() {
        UUID id = UUID.randomUUID();
        jdbc.update(
                "INSERT INTO recovery.recovery_requests (id, requested_by, reason, scope_kind, scope)"
                        + " VALUES (?, ?, ?, ?, ?::jsonb)",
                id,
                "bob",
                "wrong dataset",
                "RUN",
                "{\"runId\": \"run-1\"}");

        assertThat(jdbc.queryForMap(
                        "SELECT requested_by, status, scope ->> 'runId' AS run FROM recovery.recovery_requests"
                                + " WHERE id = ?",
                        id))
                .containsEntry("requested_by", "bob")
                .containsEntry("status", "PENDING")
                .containsEntry("run", "run-1");
    }

    @Test
    void onlyTheRecoveryRoleMayUseTheApi() {
        as("viewer").get().uri("/api/recoveries").exchange().expectStatus().isForbidden();
        RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .build()
                .get()
                .uri("/api/recoveries")
                .exchange()
                .expectStatus()
                .isUnauthorized();
        as("recovery").get().uri("/api/recoveries").exchange().expectStatus().isOk();
    }
}
