package io.erasure.deletionlog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.infra.LocalEngines;

/** The service starts against real Kafka, Cassandra and reports each of them healthy. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class DeletionLogApplicationIT {

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        LocalEngines.kafka().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.cassandra().springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    int port;

    @Autowired
    CqlSession session;

    @Test
    void healthIsUpWithEveryEngine() {
        RestTestClient.bindToServer().baseUrl("http://localhost:" + port).build()
                .get().uri("/actuator/health")
                .exchange()
                .expectAll(
                        // the body first: on failure it shows which component is down and why
                        response -> response.expectBody().json("""
                                {"status": "UP", "components": {"kafka": {"status": "UP"}, "cassandra": {"status": "UP"}}}
                                """, JsonCompareMode.LENIENT),
                        response -> response.expectStatus().isOk());
    }

    @Test
    void startupCreatedTheDeletionLogKeyspace() {
        Row keyspace = session.execute("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = 'deletion_log'").one();

        assertThat(keyspace).as("keyspace deletion_log").isNotNull();
        assertThat(keyspace.getMap("replication", String.class, String.class))
                .containsEntry("class", "org.apache.cassandra.locator.SimpleStrategy")
                .containsEntry("replication_factor", "1");
    }
}
