package io.erasure.recovery;

import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.deletionlog.client.DeletionLog;
import io.erasure.deletionlog.client.FrozenSpec;
import io.erasure.deletionlog.client.LogSchema;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.task.DeletionTask;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One Spring context for every recovery IT, on real PostgreSQL, Kafka, Cassandra and S3, with store
 * connections {@code cassandra-test} and {@code pg-test} to the same engines, and the deletion log's
 * tables (normally created by deletion-log-service). Cassandra recoveries of {@link #BULK_THRESHOLD} records
 * or more take the bulk path (SSTables written on the runtime-cassandra classpath of the test JVM).
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "erasure.recovery.rows-per-second=50",
            "erasure.recovery.bulk-threshold=" + RecoveryTestSupport.BULK_THRESHOLD,
            // schema changes (the log's tables, each test's table) outlast the driver's default 2 s on a busy machine
            "spring.cassandra.request.timeout=30s"
        })
public abstract class RecoveryTestSupport {

    /** Low, so that a test can take the bulk path with a few rows; above what the online tests restore. */
    public static final int BULK_THRESHOLD = 20;

    public static final String CASSANDRA = "cassandra-test";
    public static final String POSTGRES = "pg-test";
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static volatile boolean logTables;

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        PostgresEngine postgres = LocalEngines.postgres();
        CassandraEngine cassandra = LocalEngines.cassandra();
        postgres.springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.kafka().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        // the platform bucket: reapplications by snapshot read the restored backup's manifest
        LocalEngines.s3().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        cassandra.springProperties().forEach((name, value) -> registry.add(name, () -> value));
        cassandra.storeConnectionProperties(CASSANDRA).forEach((name, value) -> registry.add(name, () -> value));
        postgres.storeConnectionProperties(POSTGRES).forEach((name, value) -> registry.add(name, () -> value));
        // a dataset with a child table: its items are deleted, logged and restored with their order
        String items =
                "erasure.connections[" + POSTGRES + "].settings[hierarchy." + ORDERS_WITH_ITEMS + ".child.items.";
        registry.add(items + "table]", () -> "recovery_it.orders_with_items_items");
        registry.add(items + "references]", () -> "order_id=id");
        registry.add(items + "updated-at]", () -> "updated_at");
    }

    /** A PostgreSQL dataset ({@code recovery_it.orders_with_items}) whose child table {@code ..._items} is declared. */
    public static final String ORDERS_WITH_ITEMS = "orders-with-items";

    @LocalServerPort
    protected int port;

    @Autowired
    protected JsonMapper json;

    @Autowired
    protected JdbcTemplate jdbc;

    @Autowired
    protected CqlSession session;

    @Value("${erasure.deletion-log.master-key}")
    private String masterKey;

    /** The log as deletion-log-service writes it (same tables, same master key). */
    protected DeletionLog log;

    @BeforeEach
    void deletionLogTables() {
        if (!logTables) {
            session.execute("CREATE KEYSPACE IF NOT EXISTS " + LogSchema.KEYSPACE
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            LogSchema.create(session, Duration.ofDays(30));
            logTables = true;
        }
        log = DeletionLog.open(session, masterKey, Duration.ofDays(30), json, Clock.systemUTC());
    }

    /**
     * Writes {@code records} of {@code task} to the log as the deletion service does: with the spec the task deletes
     * under, frozen in the log first (recoveries and reapplications act under it).
     */
    protected void logUnder(DeletionTask task, List<DeletionRecord> records) {
        freeze(task.originId(), task.spec());
        log.writer().write(records);
    }

    /** Freezes {@code spec} in the log as the spec {@code originId} deleted its dataset under. */
    protected void freeze(String originId, DatasetSpec spec) {
        log.specs().write(FrozenSpec.of(originId, spec, null, Instant.now(), json));
    }

    protected RestTestClient as(String user) {
        return RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .defaultHeaders(h -> h.setBasicAuth(user, user))
                // what every client's writes with Basic credentials carry (service-support's CrossSiteWriteGuard)
                .defaultHeader("X-Requested-By", "tests")
                .build();
    }

    protected static String unique(String prefix) {
        return prefix + "_" + NAMES.incrementAndGet() + "_" + System.nanoTime() % 100_000;
    }

    /** Creates a recovery as the RECOVERY user and waits until it has finished; returns the finished request. */
    protected JsonNode recover(String body) {
        String created = as("recovery")
                .post()
                .uri("/api/recoveries")
                .contentType(MediaType.APPLICATION_JSON)
                .body(body)
                .exchange()
                .expectStatus()
                .isAccepted()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        UUID id = UUID.fromString(json.readTree(created).get("id").asString());
        return await().alias("recovery " + id + " COMPLETED or FAILED")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> get("/api/recoveries/" + id),
                        request -> Set.of("COMPLETED", "FAILED")
                                .contains(request.get("status").asString()));
    }

    protected JsonNode get(String uri) {
        return json.readTree(as("recovery")
                .get()
                .uri(uri)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody());
    }
}
