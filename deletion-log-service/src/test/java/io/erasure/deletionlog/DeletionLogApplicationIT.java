package io.erasure.deletionlog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;

/** The service starts against real Kafka, Cassandra and reports each of them healthy to an operator. */
class DeletionLogApplicationIT extends DeletionLogTestSupport {

    @Autowired
    CqlSession session;

    @Test
    void healthIsUpWithEveryEngine() {
        // the components only to an operator: anyone else gets the status alone
        RestTestClient.bindToServer().baseUrl("http://localhost:" + port)
                .defaultHeaders(h -> h.setBasicAuth("operator", "operator")).build()
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
        assertThat(session.execute("SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'deletion_log'")
                .all().stream().map(row -> row.getString("table_name")))
                .contains("records_by_key", "records_by_time", "records_by_run", "dataset_keys", "purges");
    }

    @Test
    void theApiNeedsACallerButHealthDoesNot() {
        RestTestClient anonymous = RestTestClient.bindToServer().baseUrl("http://localhost:" + port).build();

        anonymous.get().uri("/api/ingestion/lag").exchange().expectStatus().isUnauthorized();
        anonymous.get().uri("/actuator/health").exchange().expectStatus().isOk();
    }

    @Test
    void aPurgeRequestIsBoundedAndReadStrictlyAndARefusedOnePurgesNothing() {
        String dataset = unique("bounded-purge");
        String wideKey = java.util.stream.IntStream.range(0, 33).mapToObj(i -> "\"c" + i + "\":1")
                .collect(java.util.stream.Collectors.joining(",", "{", "}"));

        assertThat(purgeRefusal(dataset, "{\"key\":" + wideKey + ",\"reason\":\"legal hold lifted\"}"))
                .isEqualTo("key (columns of one key) has 33 elements; at most 32 are allowed");
        assertThat(purgeRefusal(dataset, "{\"key\":{\"id\":1},\"reason\":\"erasure\",\"scope\":\"all\"}"))
                .isEqualTo("field 'scope' is not known: PurgeRequest has key, reason. Remove it or correct its name:"
                        + " unknown fields are refused, not ignored");

        assertThat(as("operator").get().uri("/api/log/{dataset}/purges", dataset).exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody()).isEqualTo("[]");
    }

    private String purgeRefusal(String dataset, String body) {
        String problem = as("operator").post().uri("/api/log/{dataset}/purge", dataset)
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON).body(body).exchange()
                .expectStatus().isBadRequest().expectBody(String.class).returnResult().getResponseBody();
        return json.readTree(problem).path("detail").asString();
    }
}
