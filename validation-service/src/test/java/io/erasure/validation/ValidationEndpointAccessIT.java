package io.erasure.validation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.client.RestTestClient;

/**
 * Anyone may poll the probes and read the overall status; every other endpoint needs a credential: health
 * details, metrics and info an operator, {@code /actuator/prometheus} Prometheus' own (the METRICS role),
 * which opens nothing else.
 */
class ValidationEndpointAccessIT extends ValidationTestSupport {

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
        assertThat(health).contains("\"status\":\"UP\"").doesNotContain("components", "db", "kafka", "s3", "details");
        anonymous.get().uri("/actuator/health/db").exchange().expectStatus().isUnauthorized();
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
            "/api/final-sets",
            "/v3/api-docs"
        }) {
            anonymous.get().uri(path).exchange().expectStatus().isUnauthorized();
        }
        anonymous.post().uri("/api/final-sets").exchange().expectStatus().isUnauthorized();
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
        metrics.get().uri("/actuator/health/db").exchange().expectStatus().isForbidden();
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
                .uri("/actuator/health/db")
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
        metrics.get().uri("/api/final-sets").exchange().expectStatus().isForbidden();
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
