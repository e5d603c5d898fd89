package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

/** The service starts against real PostgreSQL, Kafka, S3 and reports each of them healthy to an operator. */
class DeletionApplicationIT extends DeletionTestSupport {

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
    void theApiAndTheMetricsNeedACallerWithARoleWhileHealthStaysOpen() {
        RestTestClient client = RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .build();
        client.get().uri("/api/purge").exchange().expectStatus().isUnauthorized();
        client.get().uri("/actuator/metrics").exchange().expectStatus().isUnauthorized();
        client.get()
                .uri("/api/purge")
                .headers(h -> h.setBasicAuth("viewer", "wrong"))
                .exchange()
                .expectStatus()
                .isUnauthorized();
        client.get()
                .uri("/api/purge")
                .headers(h -> h.setBasicAuth("viewer", "viewer"))
                .exchange()
                .expectStatus()
                .isOk();
        client.get()
                .uri("/actuator/metrics")
                .headers(h -> h.setBasicAuth("operator", "operator"))
                .exchange()
                .expectStatus()
                .isOk();
        client.get().uri("/actuator/health").exchange().expectStatus().isOk();
    }

    @Test
    void flywayMigratedTheServiceSchema() {
        assertThat(jdbc.queryForList(
                        "SELECT version FROM deletion.flyway_schema_history"
                                + " WHERE version IS NOT NULL AND success ORDER BY installed_rank",
                        String.class))
                .startsWith("1");
    }

    @Test
    void processedBatchesKeepsOneRowPerBatchAndScope() {
        String insert = "INSERT INTO deletion.processed_batches (batch_id, scope_hash, run_id, dataset, rows_deleted)"
                + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (batch_id, scope_hash) DO UPDATE"
                + " SET deliveries = processed_batches.deliveries + 1";
        jdbc.update(insert, "batch-1", "scope-a", "run-1", "orders", 10);
        jdbc.update(insert, "batch-1", "scope-a", "run-1", "orders", 10);

        assertThat(jdbc.queryForMap(
                        "SELECT rows_deleted, deliveries FROM deletion.processed_batches WHERE batch_id = 'batch-1'"))
                .containsEntry("rows_deleted", 10L)
                .containsEntry("deliveries", 2);
    }
}
