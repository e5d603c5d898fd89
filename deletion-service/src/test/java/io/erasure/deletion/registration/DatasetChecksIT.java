package io.erasure.deletion.registration;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.deletion.DeletionTestSupport;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 18 item 13: {@code POST /api/dataset-checks} checks a spec against the real stores through the adapters that
 * will delete from them, and reports every problem with its fix.
 */
class DatasetChecksIT extends DeletionTestSupport {

    private static final String KEYSPACE = "registration_checks";

    private static CqlSession cassandra;

    @Autowired
    JsonMapper json;

    @BeforeAll
    static void tables() {
        CassandraEngine engine = LocalEngines.cassandra();
        cassandra = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(engine.host(), engine.port()))
                .withLocalDatacenter(engine.localDatacenter())
                .build();
        cassandra.execute("CREATE KEYSPACE IF NOT EXISTS " + KEYSPACE
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        cassandra.execute(
                "CREATE TABLE IF NOT EXISTS " + KEYSPACE + ".profiles (member_id bigint PRIMARY KEY, name text)");
        cassandra.execute(
                "CREATE TABLE IF NOT EXISTS " + KEYSPACE + ".visits (member_id bigint PRIMARY KEY, n counter)");
        cassandra.execute("CREATE TABLE IF NOT EXISTS " + KEYSPACE + ".sessions (member_id bigint, at timestamp,"
                + " plan text STATIC, PRIMARY KEY (member_id, at))");
    }

    @AfterAll
    static void close() {
        cassandra.close();
    }

    @Test
    void aSpecThatFitsItsTablesHasNoProblems() {
        assertThat(check("registry", spec("profiles").build())).isEmpty();
    }

    @Test
    void aTableThatDoesNotExistOrAMissingIdentifierColumnIsAProblemWithItsPlace() {
        assertThat(check("registry", spec("no_such_table").build()))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.get("place")).isEqualTo("dataset 'checked'");
                    assertThat((String) p.get("problem")).contains("no_such_table");
                });
        assertThat(check(
                        "registry",
                        spec("profiles").identifierColumn("customer_id").build()))
                .singleElement()
                .satisfies(p -> assertThat((String) p.get("problem")).contains("customer_id"));
    }

    @Test
    void counterTablesAndStaticColumnsAreRefused() {
        assertThat(check("registry", spec("visits").build()))
                .singleElement()
                .satisfies(p -> assertThat((String) p.get("problem")).contains("counter"));
        assertThat(check(
                        "registry",
                        spec("sessions")
                                .keyColumns(KeyColumns.of(List.of("member_id"), List.of("at")))
                                .build()))
                .singleElement()
                .satisfies(p -> assertThat((String) p.get("problem")).contains("static column 'plan'"));
    }

    @Test
    void everyCopyIsCheckedAndAnUnknownConnectionOrAWrongKindIsNamed() {
        DatasetSpec spec = spec("profiles")
                .copies(List.of(
                        new DatasetCopy(
                                "mirror",
                                StoreKind.CASSANDRA,
                                "cass-main",
                                new CopyTarget.TableMapping(KEYSPACE, "no_mirror", Map.of("member_id", "member_id"))),
                        new DatasetCopy(
                                "elsewhere",
                                StoreKind.REDIS,
                                "redis-nowhere",
                                new CopyTarget.KeyTemplate("profile:{member_id}")),
                        new DatasetCopy(
                                "confused",
                                StoreKind.REDIS,
                                "pg-main",
                                new CopyTarget.KeyTemplate("profile:{member_id}"))))
                .build();

        List<Map<String, Object>> problems = check("registry", spec);

        assertThat(problems)
                .extracting(p -> p.get("place"))
                .containsExactly("copy 'mirror'", "copy 'elsewhere'", "copy 'confused'");
        assertThat((String) problems.get(0).get("problem")).contains("no_mirror");
        assertThat((String) problems.get(1).get("problem")).contains("connection 'redis-nowhere' is not configured");
        assertThat((String) problems.get(2).get("problem")).contains("connection 'pg-main' is a POSTGRES store");
    }

    @Test
    void onlyTheRegistryCredentialOrAnOperatorMayAsk() {
        client("owner")
                .post()
                .uri("/api/dataset-checks")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(spec("profiles").build()))
                .exchange()
                .expectStatus()
                .isForbidden();
        client("operator")
                .post()
                .uri("/api/dataset-checks")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(spec("profiles").build()))
                .exchange()
                .expectStatus()
                .isOk();
        client("registry").get().uri("/api/purge").exchange().expectStatus().isForbidden();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> check(String user, DatasetSpec spec) {
        Map<String, Object> result = client(user)
                .post()
                .uri("/api/dataset-checks")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(spec))
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(Map.class)
                .getResponseBody();
        assertThat(result.get("dataset")).isEqualTo(spec.name());
        return (List<Map<String, Object>>) result.get("problems");
    }

    private RestTestClient client(String user) {
        return RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .defaultHeaders(h -> h.setBasicAuth(user, user))
                .defaultHeader("X-Requested-By", "tests")
                .build();
    }

    private static DatasetSpec.Builder spec(String table) {
        return DatasetSpec.builder()
                .name("checked")
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cass-main")
                .namespace(KEYSPACE)
                .table(table)
                .keyColumns(KeyColumns.partitionOnly("member_id"))
                .identifierColumn("member_id")
                .identifierSource("members")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation("checked", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.1))
                .ownerTeam("demo-team");
    }
}
