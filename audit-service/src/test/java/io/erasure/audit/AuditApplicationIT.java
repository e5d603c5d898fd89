package io.erasure.audit;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.erasure.infra.LocalEngines;

/** The service starts against real Kafka, S3 and reports each of them healthy. */
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
    void healthIsUpWithEveryEngine() {
        RestTestClient.bindToServer().baseUrl("http://localhost:" + port).build()
                .get().uri("/actuator/health")
                .exchange()
                .expectAll(
                        // the body first: on failure it shows which component is down and why
                        response -> response.expectBody().json("""
                                {"status": "UP", "components": {"kafka": {"status": "UP"}, "s3": {"status": "UP"}}}
                                """, JsonCompareMode.LENIENT),
                        response -> response.expectStatus().isOk());
    }
}
