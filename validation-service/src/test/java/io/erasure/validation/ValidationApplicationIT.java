package io.erasure.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.infra.LocalEngines;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

/** The service starts against real PostgreSQL, Kafka, S3 and reports each of them healthy to an operator. */
class ValidationApplicationIT extends ValidationTestSupport {

    @Test
    void withoutAKeyToSealItsResultsTheServiceRefusesToStartNamingTheProperty() {
        List<String> arguments = new ArrayList<>(List.of("--erasure.signing.private-key=", "--server.port=0"));
        for (var engine : List.of(
                LocalEngines.postgres().springProperties(),
                LocalEngines.kafka().springProperties(),
                LocalEngines.s3().springProperties())) {
            engine.forEach((name, value) -> arguments.add("--" + name + "=" + value));
        }

        Assertions.assertThatThrownBy(() -> new SpringApplicationBuilder(ValidationApplication.class)
                        .web(WebApplicationType.NONE)
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
                                {"status": "UP", "components": {"db": {"status": "UP"}, "kafka": {"status": "UP"},
                                    "s3": {"status": "UP"}}}
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
