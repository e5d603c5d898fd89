package io.erasure.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.infra.LocalEngines;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

/**
 * The service starts against real Kafka, S3 and reports each of them healthy to an operator; anyone may
 * poll the probes, every other endpoint needs a credential, and Prometheus' credential reads only its own.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class AuditApplicationIT {

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        LocalEngines.kafka().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.s3().springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    int port;

    @Test
    void withoutAKeyToSealItsResultsTheServiceRefusesToStartNamingTheProperty() {
        List<String> arguments = new ArrayList<>(List.of("--erasure.signing.private-key=", "--server.port=0"));
        LocalEngines.kafka().springProperties().forEach((name, value) -> arguments.add("--" + name + "=" + value));
        LocalEngines.s3().springProperties().forEach((name, value) -> arguments.add("--" + name + "=" + value));

        assertThatThrownBy(() -> new SpringApplicationBuilder(AuditApplication.class)
                        .web(WebApplicationType.NONE)
                        .run(arguments.toArray(String[]::new))
                        .close())
                .hasStackTraceContaining("no key to seal audit results on erasure.run.events")
                .hasStackTraceContaining("erasure.signing.private-key is required");
    }

    @Test
    void healthIsUpWithEveryEngine() {
        as("operator")
                .get()
                .uri("/actuator/health")
                .exchange()
                .expectAll(
                        // the body first: on failure it shows which component is down and why
                        response -> response.expectBody().json("""
                                {"status": "UP", "components": {"kafka": {"status": "UP"}, "s3": {"status": "UP"}}}
                                """, JsonCompareMode.LENIENT),
                        response -> response.expectStatus().isOk());
    }

    @Test
    void anyoneGetsTheProbesAndTheStatusWithoutDetails() {
        RestTestClient anonymous = anonymous();

        anonymous
                .get()
                .uri("/actuator/health/liveness")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo("UP");
        anonymous
                .get()
                .uri("/actuator/health/readiness")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo("UP");
        String health = anonymous
                .get()
                .uri("/actuator/health")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        // what ./erasure-local waits for (LocalPlatform.awaitHealthy), and nothing about the engines
        assertThat(health).contains("\"status\":\"UP\"").doesNotContain("components", "kafka", "s3", "details");
        anonymous.get().uri("/actuator/health/kafka").exchange().expectStatus().isUnauthorized();
    }

    @Test
    void everyOtherEndpointNeedsACredential() {
        RestTestClient anonymous = anonymous();

        for (String path : new String[] {
            "/actuator",
            "/actuator/metrics",
            "/actuator/metrics/jvm.memory.used",
            "/actuator/prometheus",
            "/actuator/info",
            "/api/units",
            "/v3/api-docs"
        }) {
            anonymous.get().uri(path).exchange().expectStatus().isUnauthorized();
        }
        anonymous.post().uri("/api/units").exchange().expectStatus().isUnauthorized();
        RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .defaultHeaders(h -> h.setBasicAuth("operator", "wrong"))
                .build()
                .get()
                .uri("/actuator/metrics")
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }

    @Test
    void theMetricsTheInfoAndTheHealthDetailsAreForOperators() {
        RestTestClient metrics = as("metrics");
        RestTestClient operator = as("operator");

        metrics.get().uri("/actuator/metrics").exchange().expectStatus().isForbidden();
        metrics.get().uri("/actuator/info").exchange().expectStatus().isForbidden();
        metrics.get().uri("/actuator/health/kafka").exchange().expectStatus().isForbidden();
        metrics.get()
                .uri("/actuator/health")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.components")
                .doesNotExist();
        operator.get()
                .uri("/actuator/metrics")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.names")
                .isNotEmpty();
        operator.get().uri("/actuator/info").exchange().expectStatus().isOk();
        operator.get()
                .uri("/actuator/health/kafka")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo("UP");
    }

    @Test
    void theScrapeCredentialReadsPrometheusAndNoApi() {
        RestTestClient metrics = as("metrics");

        metrics.get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .value(text -> assertThat(text).contains("jvm_memory_used_bytes"));
        metrics.get().uri("/api/units").exchange().expectStatus().isForbidden();
        as("operator")
                .get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk();
    }

    private RestTestClient anonymous() {
        return RestTestClient.bindToServer().baseUrl("http://localhost:" + port).build();
    }

    /** A client authenticated as a user of application.yml (the password equals the name). */
    private RestTestClient as(String user) {
        return RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .defaultHeaders(h -> h.setBasicAuth(user, user))
                .build();
    }
}
