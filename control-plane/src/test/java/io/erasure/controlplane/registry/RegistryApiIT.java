package io.erasure.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.model.dataset.DatasetSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

class RegistryApiIT extends ControlPlaneTestSupport {

    @Test
    void anOwnerRegistersUpdatesAndDisablesItsTeamsDatasetWithHistoryAndActionsRecorded() {
        DatasetSpec spec = registerDataset();

        DatasetSpec changed = spec.toBuilder().priority(8).build();
        as("owner")
                .put()
                .uri("/api/datasets/" + spec.name())
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(changed))
                .exchange()
                .expectStatus()
                .isOk();
        as("owner")
                .post()
                .uri("/api/datasets/" + spec.name() + "/disable")
                .exchange()
                .expectStatus()
                .isOk();

        List<Map<String, Object>> history = as("viewer")
                .get()
                .uri("/api/datasets/" + spec.name() + "/history")
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(new ParameterizedTypeReference<List<Map<String, Object>>>() {})
                .getResponseBody();
        assertThat(history).hasSize(3);
        assertThat(history).extracting(r -> r.get("change")).containsExactly("REGISTERED", "UPDATED", "DISABLED");
        assertThat(((Map<?, ?>) history.get(1).get("spec")).get("priority")).isEqualTo(8);
        assertThat(actionsOf("dataset:" + spec.name()))
                .extracting(a -> a.get("action"))
                .containsExactly("dataset.registered", "dataset.updated", "dataset.disabled");
        assertThat(actionsOf("dataset:" + spec.name()))
                .allSatisfy(a -> assertThat(a.get("actor")).isEqualTo("owner"));

        Map<?, ?> view = as("viewer")
                .get()
                .uri("/api/datasets/" + spec.name())
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(Map.class)
                .getResponseBody();
        assertThat(view.get("enabled")).isEqualTo(false);
        assertThat(view.get("revision")).isEqualTo(3);
    }

    @Test
    void everyInvalidFieldIsRefusedWith400NamingTheFieldAndNothingIsStored() {
        DatasetSpec spec = registerDataset();
        Map<String, Object> body =
                asMap(spec.toBuilder().name("other-" + spec.name()).build());

        assertRefused(with(body, "table", "users; DROP TABLE x"), "table");
        assertRefused(with(body, "storeKind", "MONGODB"), "CASSANDRA, POSTGRES, REDIS");
        assertRefused(with(body, "conditionalColumn", null), "conditionalColumn");
        assertRefused(with(body, "priority", 42), "priority");
        assertRefused(with(body, "schedule", "every night"), "schedule");
        assertRefused(
                with(body, "identifierSource", "not-registered"),
                "identifierSource 'not-registered' is not registered");
        Map<String, Object> medusa = Map.of("prefix", "backups/medusa/", "layout", "MEDUSA");
        assertRefused(
                with(with(body, "storeKind", "POSTGRES"), "backup", medusa),
                "backup.layout MEDUSA holds a Cassandra cluster's SSTables");
        assertRefused(
                with(body, "backup", Map.of("prefix", "backups/medusa/", "layout", "MEDUSA", "format", "CSV")),
                "backup.format of a MEDUSA backup is SSTABLE");

        Integer stored = jdbc.queryForObject(
                "SELECT count(*) FROM datasets WHERE name = ?", Integer.class, "other-" + spec.name());
        assertThat(stored).isZero();
    }

    @Test
    void aSpreadWindowIsStoredAndReturnedAndOneOutOfRangeIsRefusedNamingTheFieldAndTheRange() {
        DatasetSpec spec = registerDataset(b -> b.spreadOver(Duration.ofHours(6)));

        Map<?, ?> view = as("viewer")
                .get()
                .uri("/api/datasets/" + spec.name())
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(Map.class)
                .getResponseBody();
        assertThat(((Map<?, ?>) view.get("spec")).get("spreadOver")).isEqualTo("PT6H");
        assertThat(jdbc.queryForObject(
                        "SELECT spec ->> 'spreadOver' FROM datasets WHERE name = ?", String.class, spec.name()))
                .isEqualTo("PT6H");

        as("owner")
                .put()
                .uri("/api/datasets/" + spec.name())
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(spec.toBuilder().spreadOver(null).build()))
                .exchange()
                .expectStatus()
                .isOk();
        List<Map<String, Object>> history = as("viewer")
                .get()
                .uri("/api/datasets/" + spec.name() + "/history")
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(new ParameterizedTypeReference<List<Map<String, Object>>>() {})
                .getResponseBody();
        assertThat(history)
                .extracting(r -> (Object) ((Map<?, ?>) r.get("spec")).get("spreadOver"))
                .containsExactly("PT6H", null);

        Map<String, Object> body =
                asMap(spec.toBuilder().name("other-" + spec.name()).build());
        assertRefused(with(body, "spreadOver", "P7D"), "spreadOver must be an ISO-8601 duration between PT10S and P1D");
        assertRefused(
                with(body, "spreadOver", "PT5S"), "spreadOver must be an ISO-8601 duration between PT10S and P1D");
        assertRefused(with(body, "spreadOver", "-PT6H"), "got PT-6H");
        assertRefused(
                with(body, "spreadOver", "six hours"),
                "field 'spreadOver' must be an ISO-8601 duration between PT10S and P1D");
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM datasets WHERE name = ?", Integer.class, "other-" + spec.name()))
                .isZero();
    }

    @Test
    void aDuplicateNameIs409() {
        DatasetSpec spec = registerDataset();

        as("owner")
                .post()
                .uri("/api/datasets")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(spec))
                .exchange()
                .expectStatus()
                .isEqualTo(409)
                .expectBody()
                .jsonPath("$.detail")
                .value(d -> assertThat((String) d).contains("already registered"));
    }

    @Test
    void anOwnerCannotChangeAnotherTeamsDatasetAndViewersCannotWrite() {
        DatasetSpec spec = registerDataset();
        DatasetSpec foreign = spec.toBuilder()
                .name("foreign-" + spec.name())
                .ownerTeam("payments")
                .build();

        as("owner")
                .post()
                .uri("/api/datasets")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(foreign))
                .exchange()
                .expectStatus()
                .isForbidden();
        as("owner")
                .put()
                .uri("/api/datasets/" + spec.name())
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(
                        spec.toBuilder().ownerTeam("payments").build()))
                .exchange()
                .expectStatus()
                .isForbidden();
        as("viewer")
                .post()
                .uri("/api/datasets/" + spec.name() + "/disable")
                .exchange()
                .expectStatus()
                .isForbidden();
        as("operator")
                .post()
                .uri("/api/datasets/" + spec.name() + "/disable")
                .exchange()
                .expectStatus()
                .isForbidden();
        RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .build()
                .get()
                .uri("/api/datasets")
                .exchange()
                .expectStatus()
                .isUnauthorized();

        Map<?, ?> view = as("viewer")
                .get()
                .uri("/api/datasets/" + spec.name())
                .exchange()
                .returnResult(Map.class)
                .getResponseBody();
        assertThat(view.get("enabled")).isEqualTo(true);
        assertThat(((Map<?, ?>) view.get("spec")).get("ownerTeam")).isEqualTo("demo-team");
    }

    @Test
    void searchFindsByTextTeamAndKind() {
        DatasetSpec spec = registerDataset();

        List<?> found = as("viewer")
                .get()
                .uri("/api/datasets?q=" + spec.name() + "&team=demo-team&storeKind=cassandra")
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(List.class)
                .getResponseBody();
        List<?> none = as("viewer")
                .get()
                .uri("/api/datasets?q=" + spec.name() + "&storeKind=POSTGRES")
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(List.class)
                .getResponseBody();

        assertThat(found).hasSize(1);
        assertThat(none).isEmpty();
        as("viewer")
                .get()
                .uri("/api/datasets?storeKind=mongodb")
                .exchange()
                .expectStatus()
                .isBadRequest();
    }

    @Test
    void theOpenApiDocumentIsServed() {
        as("viewer")
                .get()
                .uri("/v3/api-docs")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.paths['/api/datasets']")
                .exists();
    }

    private void assertRefused(Map<String, Object> body, String expectedInDetail) {
        as("owner")
                .post()
                .uri("/api/datasets")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(body))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.detail")
                .value(d -> assertThat((String) d).contains(expectedInDetail));
    }

    private static Map<String, Object> with(Map<String, Object> body, String field, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(body);
        copy.put(field, value);
        return copy;
    }
}
