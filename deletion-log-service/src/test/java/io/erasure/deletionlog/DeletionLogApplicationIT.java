package io.erasure.deletionlog;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.deletionlog.client.DeletionLog;
import io.erasure.deletionlog.client.FrozenSpec;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import java.time.Instant;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

/** The service starts against real Kafka, Cassandra and reports each of them healthy to an operator. */
class DeletionLogApplicationIT extends DeletionLogTestSupport {

    @Autowired
    CqlSession session;

    @Autowired
    DeletionLog deletionLog;

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
                                {"status": "UP", "components": {"kafka": {"status": "UP"},
                                    "cassandra": {"status": "UP"}}}
                                """, JsonCompareMode.LENIENT),
                        response -> response.expectStatus().isOk());
    }

    @Test
    void startupCreatedTheDeletionLogKeyspace() {
        Row keyspace = session.execute(
                        "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = 'deletion_log'")
                .one();

        assertThat(keyspace).as("keyspace deletion_log").isNotNull();
        assertThat(keyspace.getMap("replication", String.class, String.class))
                .containsEntry("class", "org.apache.cassandra.locator.SimpleStrategy")
                .containsEntry("replication_factor", "1");
        assertThat(session
                        .execute("SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'deletion_log'")
                        .all()
                        .stream()
                        .map(row -> row.getString("table_name")))
                .contains(
                        "records_by_key",
                        "records_by_time",
                        "records_by_run",
                        "dataset_keys",
                        "purges",
                        "frozen_specs",
                        "frozen_specs_by_dataset");
    }

    @Test
    void theSpecARunDeletedUnderIsKeptWithTheLogAndReadableThroughTheQueryApi() {
        String run = unique("run");
        DatasetSpec spec = DatasetSpec.builder()
                .name(unique("profiles").replace('_', '-'))
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cassandra-main")
                .namespace("demo")
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(new BackupLocation("backups/profiles/", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("demo-team")
                .build();
        FrozenSpec frozen = FrozenSpec.of(run, spec, null, Instant.now(), json);
        deletionLog.specs().write(frozen); // as the deletion service does with a batch's records

        JsonNode specs = get("viewer", "/api/log/runs/{run}/specs", run);

        assertThat(specs).hasSize(1);
        assertThat(specs.get(0).get("dataset").asString()).isEqualTo(spec.name());
        assertThat(specs.get(0).get("digest").asString())
                .isEqualTo(FrozenSpec.digest(spec, json))
                .startsWith("spec-v1:");
        assertThat(json.treeToValue(specs.get(0).get("spec"), DatasetSpec.class))
                .isEqualTo(spec);
        assertThat(deletionLog.specs().ofDataset(spec.name()))
                .extracting(FrozenSpec::digest)
                .containsExactly(frozen.digest());
        assertThat(get("viewer", "/api/log/runs/{run}/specs", unique("older-run")))
                .as("an origin that froze none")
                .isEmpty();
    }

    @Test
    void theApiNeedsACallerButHealthDoesNot() {
        RestTestClient anonymous = RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .build();

        anonymous.get().uri("/api/ingestion/lag").exchange().expectStatus().isUnauthorized();
        anonymous.get().uri("/actuator/health").exchange().expectStatus().isOk();
    }

    @Test
    void aPurgeRequestIsBoundedAndReadStrictlyAndARefusedOnePurgesNothing() {
        String dataset = unique("bounded-purge");
        String wideKey =
                IntStream.range(0, 33).mapToObj(i -> "\"c" + i + "\":1").collect(Collectors.joining(",", "{", "}"));

        assertThat(purgeRefusal(dataset, "{\"key\":" + wideKey + ",\"reason\":\"legal hold lifted\"}"))
                .isEqualTo("key (columns of one key) has 33 elements; at most 32 are allowed");
        assertThat(purgeRefusal(dataset, "{\"key\":{\"id\":1},\"reason\":\"erasure\",\"scope\":\"all\"}"))
                .isEqualTo("field 'scope' is not known: PurgeRequest has key, reason. Remove it or correct its name:"
                        + " unknown fields are refused, not ignored");

        assertThat(as("operator")
                        .get()
                        .uri("/api/log/{dataset}/purges", dataset)
                        .exchange()
                        .expectStatus()
                        .isOk()
                        .expectBody(String.class)
                        .returnResult()
                        .getResponseBody())
                .isEqualTo("[]");
    }

    private String purgeRefusal(String dataset, String body) {
        String problem = as("operator")
                .post()
                .uri("/api/log/{dataset}/purge", dataset)
                .contentType(MediaType.APPLICATION_JSON)
                .body(body)
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        return json.readTree(problem).path("detail").asString();
    }
}
