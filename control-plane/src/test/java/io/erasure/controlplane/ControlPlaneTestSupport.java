package io.erasure.controlplane;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.kafka.TopicRecords;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.EventSeals;
import io.erasure.model.trust.SigningKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * One Spring context for every control-plane IT (real PostgreSQL, Kafka and S3); the cron scheduler
 * is parked so tests drive it themselves.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "erasure.control-plane.scheduler-initial-delay=1h",
            "erasure.control-plane.outbox-interval=200ms",
            // forward deletion: tests drive the reconciler; a burst is small enough to reach
            "erasure.forward.reconcile-initial-delay=1h",
            "erasure.forward.burst.max-per-window=5",
            // no deletion service runs beside these tests (local-platform's ITs check registrations against live
            // stores)
            "erasure.registry.live-check.enabled=false",
            // what the operators grant team demo-team here: the places the tests register, and nothing else
            "erasure.ownership.grants[0].team=demo-team",
            "erasure.ownership.grants[0].connection=cassandra-main",
            "erasure.ownership.grants[0].namespaces=shop,search",
            "erasure.ownership.grants[1].team=demo-team",
            "erasure.ownership.grants[1].connection=pg-main",
            "erasure.ownership.grants[1].namespaces=public",
            "erasure.ownership.grants[2].team=demo-team",
            "erasure.ownership.grants[2].connection=redis-main",
            "erasure.ownership.grants[2].key-prefixes=profile:",
            "erasure.ownership.grants[3].team=demo-team",
            "erasure.ownership.grants[3].backup-prefixes=backups/ds-,backups/src-,backups/other-,backups/foreign-"
        })
public abstract class ControlPlaneTestSupport {

    private static final AtomicInteger NAMES = new AtomicInteger();

    /**
     * The LOCAL ONLY keys the producers of {@code erasure.run.events} seal their results with (their
     * application-local.yml), which the control plane's local profile trusts: audit-service's for AUDIT_RESULT,
     * validation-service's for VALIDATION_RESULT, deletion-service's for BATCH_RESULT.
     */
    public static final SigningKey AUDIT_KEY =
            SigningKey.of("audit-local", "MC4CAQAwBQYDK2VwBCIEIKjzIel+FXKkm+1gE0XvcqhznICc55fP7rSK5NxLL4UH");

    public static final SigningKey VALIDATION_KEY =
            SigningKey.of("validation-local", "MC4CAQAwBQYDK2VwBCIEIOiA1ULBdJSHHmI8Lsv/iI/a80S+hD9AHhOE1HT5tyx8");
    public static final SigningKey DELETION_KEY =
            SigningKey.of("deletion-local", "MC4CAQAwBQYDK2VwBCIEIA9XFmeJqe3S4bqKJBbRJ2YcW+jffB2SautBhvlOxL0C");

    /**
     * {@code event} sealed as its producer seals it: an audit result with audit-service's local key, a validation
     * result with validation-service's, a batch result with deletion-service's (EventSeals' grants).
     */
    public static EventEnvelope sealed(EventEnvelope event) {
        Authorization.Kind grant = EventSeals.grantFor(event.payload().getClass())
                .orElseThrow(() ->
                        new IllegalArgumentException(event.eventType() + " is not a run event: no service seals it"));
        return event.sealedWith(
                switch (grant) {
                    case AUDIT_RESULT -> AUDIT_KEY;
                    case VALIDATION_RESULT -> VALIDATION_KEY;
                    case BATCH_RESULT -> DELETION_KEY;
                    default -> throw new IllegalStateException("no producer seals with " + grant);
                });
    }

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        LocalEngines.postgres().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.kafka().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.s3().springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected JsonMapper json;

    @Autowired
    protected JdbcTemplate jdbc;

    /** A client authenticated as a user of application.yml (the password equals the name). */
    protected RestTestClient as(String user) {
        return RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .defaultHeaders(h -> h.setBasicAuth(user, user))
                // what every client's writes with Basic credentials carry (service-support's CrossSiteWriteGuard)
                .defaultHeader("X-Requested-By", "tests")
                .build();
    }

    protected static String unique(String prefix) {
        return prefix + "-" + NAMES.incrementAndGet() + "-" + System.nanoTime() % 100_000;
    }

    protected static IdentifierSource source(String name) {
        return new IdentifierSource(
                name,
                StoreKind.POSTGRES,
                "pg-main",
                "public",
                "customers",
                "customer_id",
                "deleted_at",
                S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP),
                Duration.ofDays(3));
    }

    protected static DatasetSpec.Builder dataset(String name, String source) {
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cassandra-main")
                .namespace("shop")
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("customer_id"))
                .identifierColumn("customer_id")
                .identifierSource(source)
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.05))
                .ownerTeam("demo-team");
    }

    /** Registers a fresh identifier source and a dataset of team demo-team (as "owner"); returns the spec. */
    protected DatasetSpec registerDataset() {
        return registerDataset(UnaryOperator.identity());
    }

    /**
     * As {@link #registerDataset()}, with the spec changed by {@code customize} (copies, limits) before registering.
     */
    protected DatasetSpec registerDataset(UnaryOperator<DatasetSpec.Builder> customize) {
        String source = unique("src");
        as("operator")
                .post()
                .uri("/api/identifier-sources")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(source(source)))
                .exchange()
                .expectStatus()
                .isCreated();
        DatasetSpec spec = customize.apply(dataset(unique("ds"), source)).build();
        as("owner")
                .post()
                .uri("/api/datasets")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(spec))
                .exchange()
                .expectStatus()
                .isCreated();
        return spec;
    }

    @SuppressWarnings("unchecked")
    protected Map<String, Object> asMap(Object value) {
        return json.readValue(json.writeValueAsString(value), Map.class);
    }

    /** The envelopes on {@code topic} matching {@code filter}, waiting for at least {@code atLeast} of them. */
    protected List<EventEnvelope> published(String topic, Predicate<EventEnvelope> filter, int atLeast) {
        return TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                topic,
                value -> json.readValue(value, EventEnvelope.class),
                filter,
                atLeast,
                Duration.ofSeconds(atLeast == 0 ? 3 : 30));
    }

    protected List<Map<String, Object>> actionsOf(String subject) {
        return jdbc.queryForList("SELECT actor, action FROM actions_log WHERE subject = ? ORDER BY id", subject);
    }
}
