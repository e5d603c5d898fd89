package io.erasure.validation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

/** The service starts against real PostgreSQL, Kafka, S3 and reports each of them healthy to an operator. */
class ValidationApplicationIT extends ValidationTestSupport {

    @Test
    void withoutAKeyToSealItsResultsTheServiceRefusesToStartNamingTheProperty() {
        java.util.List<String> arguments =
                new java.util.ArrayList<>(java.util.List.of("--erasure.signing.private-key=", "--server.port=0"));
        for (var engine : java.util.List.of(
                io.erasure.infra.LocalEngines.postgres().springProperties(),
                io.erasure.infra.LocalEngines.kafka().springProperties(),
                io.erasure.infra.LocalEngines.s3().springProperties())) {
            engine.forEach((name, value) -> arguments.add("--" + name + "=" + value));
        }

        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new org.springframework.boot.builder.SpringApplicationBuilder(ValidationApplication.class)
                                .web(org.springframework.boot.WebApplicationType.NONE)
                                .run(arguments.toArray(String[]::new))
                                .close())
                .hasStackTraceContaining("no key to seal validation results on erasure.run.events")
                .hasStackTraceContaining("erasure.signing.private-key is required");
    }

    @Test
    void healthIsUpWithEveryEngine() {
        // the components only to an operator (ValidationEndpointAccessIT)
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
                                {"status": "UP", "components": {"db": {"status": "UP"}, "kafka": {"status": "UP"}, "s3": {"status": "UP"}}}
                                """, JsonCompareMode.LENIENT),
                        response -> response.expectStatus().isOk());
    }

    @Test
    void flywayMigratedTheServiceSchema() {
        assertThat(jdbc.queryForList(
                        "SELECT version FROM validation.flyway_schema_history"
                                + " WHERE version IS NOT NULL AND success ORDER BY installed_rank",
                        String.class))
                .startsWith("1");
    }

    @Test
    void processedJobsKeepsOneRowPerJobAndScope() {
        String insert = "INSERT INTO validation.processed_jobs (job_id, scope_hash, run_id) VALUES (?, ?, ?)"
                + " ON CONFLICT (job_id, scope_hash) DO UPDATE SET deliveries = processed_jobs.deliveries + 1";
        jdbc.update(insert, "job-1", "scope-a", "run-1");
        jdbc.update(insert, "job-1", "scope-a", "run-1");
        jdbc.update(insert, "job-1", "scope-b", "run-1");

        assertThat(jdbc.queryForList(
                        "SELECT scope_hash || ':' || deliveries FROM validation.processed_jobs"
                                + " WHERE job_id = 'job-1' ORDER BY scope_hash",
                        String.class))
                .containsExactly("scope-a:2", "scope-b:1");
    }
}
