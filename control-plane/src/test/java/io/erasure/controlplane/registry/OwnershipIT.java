package io.erasure.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.identifier.IdentifierSource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

/**
 * Issue 18 items 1–3: what a team may register is what operators granted it (ControlPlaneTestSupport grants demo-team
 * cassandra-main shop.* and search.*, pg-main public.*, redis-main keys "profile:", backups under backups/ds-,
 * src-...), owners' limits stay under the operators' ceiling (0.5, 1,000,000 rows), and identifier sources belong to a
 * team.
 */
class OwnershipIT extends ControlPlaneTestSupport {

    @Test
    void aTableOutsideTheTeamsGrantsIsRefusedNamingTheRuleAndNothingIsStored() {
        String source = registeredSource();
        DatasetSpec billing = dataset(unique("ds"), source)
                .namespace("billing")
                .table("invoices")
                .build();

        String detail = refused(as("owner").post().uri("/api/datasets"), billing, 403);

        assertThat(detail)
                .contains("team 'demo-team' may not register dataset '" + billing.name() + "'")
                .contains("table billing.invoices on connection 'cassandra-main'")
                .contains("erasure.ownership.grants")
                .contains("shop.*");
        assertThat(stored(billing.name())).isZero();
    }

    @Test
    void aCopyOnAnotherTeamsCacheKeysOrTableIsRefused() {
        String source = registeredSource();
        DatasetSpec sessions = dataset(unique("ds"), source)
                .copies(List.of(new DatasetCopy(
                        "cache", StoreKind.REDIS, "redis-main", new CopyTarget.KeyTemplate("session:{customer_id}"))))
                .build();
        DatasetSpec ledger = dataset(unique("ds"), source)
                .copies(List.of(new DatasetCopy(
                        "ledger",
                        StoreKind.POSTGRES,
                        "pg-main",
                        new CopyTarget.TableMapping("finance", "ledger", Map.of("customer_id", "customer_id")))))
                .build();
        DatasetSpec cached = dataset(unique("ds"), source)
                .copies(List.of(new DatasetCopy(
                        "cache", StoreKind.REDIS, "redis-main", new CopyTarget.KeyTemplate("profile:{customer_id}"))))
                .build();

        assertThat(refused(as("owner").post().uri("/api/datasets"), sessions, 403))
                .contains("copy 'cache' at keys starting 'session:' on connection 'redis-main'")
                .contains("[profile:]");
        assertThat(refused(as("owner").post().uri("/api/datasets"), ledger, 403))
                .contains("copy 'ledger' at table finance.ledger on connection 'pg-main'");
        as("owner")
                .post()
                .uri("/api/datasets")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(cached))
                .exchange()
                .expectStatus()
                .isCreated();
        assertThat(stored(sessions.name()) + stored(ledger.name())).isZero();
    }

    @Test
    void aBackupPrefixOfAnotherTeamIsRefused() {
        String source = registeredSource();
        DatasetSpec spec = dataset(unique("ds"), source)
                .backup(new BackupLocation("backups/payments-members/", BackupFormat.JSONL_GZIP))
                .build();

        assertThat(refused(as("owner").post().uri("/api/datasets"), spec, 403))
                .contains("may not read backups of dataset '" + spec.name() + "' from 'backups/payments-members/'");
        assertThat(stored(spec.name())).isZero();
    }

    @Test
    void anUpdateMovingADatasetOutsideItsGrantsIsRefusedAndTheSpecStaysAsItWas() {
        DatasetSpec spec = registerDataset();

        refused(
                as("owner").put().uri("/api/datasets/" + spec.name()),
                spec.toBuilder().namespace("billing").build(),
                403);

        Map<?, ?> view = as("viewer")
                .get()
                .uri("/api/datasets/" + spec.name())
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(Map.class)
                .getResponseBody();
        assertThat(((Map<?, ?>) view.get("spec")).get("namespace")).isEqualTo("shop");
        assertThat(view.get("revision")).isEqualTo(1);
    }

    @Test
    void ownersLimitsAboveTheOperatorsCeilingAreRefusedNamingTheCeiling() {
        String source = registeredSource();
        DatasetSpec everything = dataset(unique("ds"), source)
                .limits(DeletionLimits.fraction(1.0))
                .build();
        DatasetSpec unbounded = dataset(unique("ds"), source)
                .limits(DeletionLimits.rows(Long.MAX_VALUE))
                .build();

        assertThat(refused(as("owner").post().uri("/api/datasets"), everything, 400))
                .contains("limits.maxFraction 1.0 is above the operators' ceiling 0.5")
                .contains("erasure.ownership.limits-ceiling.max-fraction");
        assertThat(refused(as("owner").post().uri("/api/datasets"), unbounded, 400))
                .contains("limits.maxRows " + Long.MAX_VALUE + " is above the operators' ceiling 1000000");
        assertThat(stored(everything.name()) + stored(unbounded.name())).isZero();
    }

    @Test
    void anIdentifierSourceBelongsToItsTeamOnlyItsOwnersOrAnOperatorChangeItAndEveryRevisionIsKept() {
        String name = unique("src");
        IdentifierSource source = source(name);
        as("owner")
                .post()
                .uri("/api/identifier-sources")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(source))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody()
                .jsonPath("$.ownerTeam")
                .isEqualTo("demo-team");

        IdentifierSource longerGrace = new IdentifierSource(
                name,
                source.storeKind(),
                source.connectionRef(),
                source.namespace(),
                source.table(),
                source.identifierColumn(),
                source.deletableSinceColumn(),
                source.backup(),
                source.gracePeriod().plusDays(1));
        // another team's owner may not take it over, a viewer may not change it
        refused(as("owner").put().uri("/api/identifier-sources/" + name), longerGrace.ownedBy("payments"), 403);
        refused(as("viewer").put().uri("/api/identifier-sources/" + name), longerGrace, 403);
        as("owner")
                .put()
                .uri("/api/identifier-sources/" + name)
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(longerGrace))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.ownerTeam")
                .isEqualTo("demo-team");
        as("operator")
                .put()
                .uri("/api/identifier-sources/" + name)
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(source))
                .exchange()
                .expectStatus()
                .isOk();

        List<Map<String, Object>> history = as("viewer")
                .get()
                .uri("/api/identifier-sources/" + name + "/history")
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(new ParameterizedTypeReference<List<Map<String, Object>>>() {})
                .getResponseBody();
        assertThat(history).extracting(r -> r.get("changedBy")).containsExactly("owner", "owner", "operator");
        assertThat(history)
                .extracting(r -> (Object) ((Map<?, ?>) r.get("source")).get("gracePeriod"))
                .containsExactly("PT72H", "PT96H", "PT72H");
        assertThat(actionsOf("identifier-source:" + name))
                .extracting(a -> a.get("action"))
                .containsExactly(
                        "identifier-source.registered", "identifier-source.updated", "identifier-source.updated");
    }

    @Test
    void anOwnerMayNotRegisterASourceForAnotherTeamOrOnATableOutsideItsGrants() {
        IdentifierSource foreign = source(unique("src")).ownedBy("payments");
        IdentifierSource billing = new IdentifierSource(
                unique("src"),
                StoreKind.POSTGRES,
                "pg-main",
                "billing",
                "customers",
                "customer_id",
                "deleted_at",
                source(unique("src")).backup(),
                null);

        assertThat(refused(as("owner").post().uri("/api/identifier-sources"), foreign, 403))
                .contains("for their own team only");
        assertThat(refused(as("owner").post().uri("/api/identifier-sources"), billing, 403))
                .contains("identifier source '" + billing.name()
                        + "' at table billing.customers on connection 'pg-main'");
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM identifier_sources WHERE name IN (?, ?)",
                        Integer.class,
                        foreign.name(),
                        billing.name()))
                .isZero();
    }

    private String registeredSource() {
        String source = unique("src");
        as("operator")
                .post()
                .uri("/api/identifier-sources")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(source(source)))
                .exchange()
                .expectStatus()
                .isCreated();
        return source;
    }

    private String refused(RestTestClient.RequestBodySpec request, Object body, int status) {
        return (String) request.contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(body))
                .exchange()
                .expectStatus()
                .isEqualTo(status)
                .returnResult(Map.class)
                .getResponseBody()
                .get("detail");
    }

    private int stored(String dataset) {
        return jdbc.queryForObject("SELECT count(*) FROM datasets WHERE name = ?", Integer.class, dataset);
    }
}
