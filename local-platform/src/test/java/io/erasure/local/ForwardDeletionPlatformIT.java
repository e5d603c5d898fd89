package io.erasure.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.infra.KafkaEngine;
import io.erasure.infra.PostgresEngine;
import io.erasure.infra.RedisEngine;
import io.erasure.infra.kafka.TopicRecords;
import io.erasure.local.demo.DemoCycle;
import io.erasure.local.demo.PlatformClient;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.task.DeletionTask;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Forward deletion across the real services: an upstream "member deleted" request goes from the control
 * plane through the deletion service to Cassandra and the Redis cache copy, and the request reads PURGED only
 * once every target and copy has confirmed. The member's orders, addressed by the indexed {@code member_id}
 * rather than their key, are either kept as legal records (KEEP_SNAPSHOT) or found through the index and
 * deleted with their items; a profile under an ANONYMISE policy keeps its row with the personal columns cleared.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForwardDeletionPlatformIT {

    /** A member who has not left: only the forward request makes its data go. */
    private static final long MEMBER = 7;

    private static final List<Long> ORDERS = List.of(MEMBER * 10, MEMBER * 10 + 1, MEMBER * 10 + 2);

    private final JsonMapper json = JsonMapper.builder().build();
    private SharedPlatform shared;
    private LocalPlatform.Running platform;
    private PlatformClient operator;
    private PlatformClient owner;
    private PlatformClient publisher;

    @BeforeAll
    void platform() throws Exception {
        shared = SharedPlatform.get();
        platform = shared.platform;
        operator = new PlatformClient(json, URI.create("http://127.0.0.1:8080"), "operator", "operator");
        owner = operator.as("owner", "owner");
        publisher = operator.as("publisher", "publisher");
    }

    /** The demo datasets delete again, as the other platform ITs expect (a kept or anonymised dataset refuses runs). */
    @AfterAll
    void deleteAgain() {
        policy(DemoCycle.ORDERS, Map.of("action", "DELETE"));
        policy(DemoCycle.PROFILES, Map.of("action", "DELETE"));
    }

    @Test
    void aMembersProfileCacheEntryAndSearchDocumentGoAtOnceWhileTheOrdersAreKeptAsLegalRecords() throws Exception {
        registerOrderRecordsKeptAsSnapshots();
        policy(DemoCycle.ORDERS, Map.of("action", "KEEP_SNAPSHOT"));
        policy(DemoCycle.PROFILES, Map.of("action", "DELETE"));
        assertThat(profileExists(MEMBER)).isTrue();
        assertThat(cacheEntryExists(MEMBER)).isTrue();
        assertThat(shared.demo.data().searchHas(MEMBER)).isTrue();
        Map<String, Object> request = Map.of(
                "aggregateType",
                DemoCycle.SOURCE,
                "aggregateId",
                Long.toString(MEMBER),
                "version",
                1,
                "childIds",
                Map.of("order-ids", ORDERS.stream().map(String::valueOf).toList()));

        JsonNode accepted = publisher.post("/api/forward-requests", request).require("publishing the request");

        assertThat(accepted.path("state").asString()).isEqualTo("TOMBSTONED");
        String requestId = accepted.path("requestId").asString();
        JsonNode purged = awaitState(requestId, "PURGED");
        Map<String, JsonNode> targets = new HashMap<>();
        purged.path("targets").forEach(t -> targets.put(t.path("dataset").asString(), t));
        assertThat(targets.get(DemoCycle.PROFILES).path("outcome").asString()).isEqualTo("DELETED");
        assertThat(targets.get(DemoCycle.PROFILES).path("deleted").asLong()).isEqualTo(1);
        assertThat(targets.get(DemoCycle.PROFILES).path("copyTasksReported").asInt())
                .isEqualTo(targets.get(DemoCycle.PROFILES)
                        .path("copyTasksExpected")
                        .asInt())
                .as("one copy task each for the cache and the search index")
                .isEqualTo(2);
        assertThat(targets.get("order-records").path("outcome").asString()).isEqualTo("SNAPSHOT_KEPT");
        assertThat(targets.get(DemoCycle.ORDERS).path("outcome").asString()).isEqualTo("SNAPSHOT_KEPT");

        assertThat(profileExists(MEMBER))
                .as("the profile is gone from Cassandra")
                .isFalse();
        assertThat(cacheEntryExists(MEMBER))
                .as("its cache entry is gone from Redis")
                .isFalse();
        assertThat(shared.demo.data().searchHas(MEMBER))
                .as("its document is gone from the search index")
                .isFalse();
        assertThat(shared.demo.data().searchHas(MEMBER + 1))
                .as("another member's document is untouched")
                .isTrue();
        assertThat(orderCount(MEMBER))
                .as("the orders are kept as legal records")
                .isEqualTo(ORDERS.size());
        assertThat(profileExists(MEMBER + 1)).as("another member is untouched").isTrue();

        JsonNode repeat = publisher.post("/api/forward-requests", request).require("publishing it again");
        assertThat(repeat.path("outcome").asString()).isEqualTo("DUPLICATE");
        assertThat(repeat.path("requestId").asString()).isEqualTo(requestId);
    }

    @Test
    void ordersAreFoundThroughTheMemberIndexAndDeletedWhileAnAnonymisedProfileKeepsItsRow() throws Exception {
        long member = MEMBER + 1;
        policy(DemoCycle.ORDERS, Map.of("action", "DELETE"));
        policy(DemoCycle.PROFILES, Map.of("action", "ANONYMISE", "clearColumns", List.of("display_name", "email")));
        assertThat(orderCount(member)).isEqualTo(ORDERS.size());
        long items = itemCount(member);
        assertThat(items).isPositive();
        assertThat(cacheEntryExists(member)).isTrue();

        JsonNode accepted = publisher
                .post(
                        "/api/forward-requests",
                        Map.of("aggregateType", DemoCycle.SOURCE, "aggregateId", Long.toString(member), "version", 1))
                .require("publishing the request");
        JsonNode purged = awaitState(accepted.path("requestId").asString(), "PURGED");
        Map<String, JsonNode> targets = new HashMap<>();
        purged.path("targets").forEach(t -> targets.put(t.path("dataset").asString(), t));

        JsonNode orders = targets.get(DemoCycle.ORDERS);
        assertThat(orders.path("outcome").asString()).isEqualTo("DELETED");
        assertThat(orders.path("lookup").asBoolean()).isTrue();
        assertThat(orders.path("keys").asInt())
                .as("the member's orders, found through the index")
                .isEqualTo(ORDERS.size());
        assertThat(orderCount(member)).as("the orders are gone").isZero();
        assertThat(itemCount(member)).as("and their items with them").isZero();
        assertThat(orderCount(MEMBER + 2)).as("another member's orders stay").isEqualTo(ORDERS.size());

        JsonNode profile = targets.get(DemoCycle.PROFILES);
        assertThat(profile.path("outcome").asString()).isEqualTo("ANONYMISED");
        Map<String, Object> row = shared.profile(member);
        assertThat(row).as("the profile row is kept").isNotNull();
        assertThat(row.get("display_name")).isNull();
        assertThat(row.get("email")).isNull();
        assertThat(row.get("country")).isEqualTo(member % 3 == 0 ? "FR" : "NL");
        assertThat(cacheEntryExists(member))
                .as("its cache entry, filled from the old row, is gone")
                .isFalse();

        // a mistake can be undone: the anonymisation's record puts back exactly the cleared columns
        PlatformClient recovery = operator.as("recovery", "recovery").at(URI.create("http://127.0.0.1:8085"));
        // no spec: the record is restored under the spec its request froze in the deletion log
        JsonNode created = recovery.post(
                        "/api/recoveries",
                        Map.of(
                                "scope",
                                Map.of(
                                        "type",
                                        "keys",
                                        "dataset",
                                        DemoCycle.PROFILES,
                                        "keys",
                                        List.of(Map.of("member_id", member))),
                                "dryRun",
                                false,
                                "reason",
                                "anonymised by mistake"))
                .require("requesting the recovery");
        JsonNode done = awaitRecovery(recovery, created.path("id").asString());
        assertThat(done.path("status").asString()).isEqualTo("COMPLETED");
        Map<String, Object> restored = shared.profile(member);
        assertThat(restored.get("display_name")).isEqualTo("Member " + member);
        assertThat(restored.get("email")).isEqualTo("member" + member + "@example.com");
        assertThat(restored.get("country")).isEqualTo(row.get("country"));
    }

    private JsonNode awaitRecovery(PlatformClient recovery, String id) {
        return await("recovery " + id + " to finish")
                .atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> recovery.get("/api/recoveries/" + id).require("reading the recovery"),
                        view -> !List.of("PENDING", "RUNNING")
                                .contains(view.path("status").asString()));
    }

    @Test
    void aTaskLostWithAKilledDeletionServiceIsRepublishedByTheReconcilerAndTheRequestFinishes() throws Exception {
        long member = 11;
        policy(DemoCycle.ORDERS, Map.of("action", "KEEP_SNAPSHOT"));
        policy(DemoCycle.PROFILES, Map.of("action", "DELETE"));
        assertThat(profileExists(member)).isTrue();
        String requestId;
        platform.kill("deletion-service");
        try {
            requestId = publisher
                    .post(
                            "/api/forward-requests",
                            Map.of(
                                    "aggregateType",
                                    DemoCycle.SOURCE,
                                    "aggregateId",
                                    Long.toString(member),
                                    "version",
                                    1))
                    .require("publishing the request")
                    .path("requestId")
                    .asString();
            String bootstrap = platform.engine(KafkaEngine.class).bootstrapServers();
            String finalRequestId = requestId;
            assertThat(TopicRecords.read(
                            bootstrap,
                            Topics.DELETION_TASKS,
                            value -> json.readValue(value, DeletionTask.class),
                            task -> finalRequestId.equals(task.requestId()),
                            1,
                            Duration.ofSeconds(60)))
                    .isNotEmpty();
            // the task is lost: the group is moved past it, as a consumer that committed it and then died would leave
            // it
            skipEveryTask(bootstrap);
        } finally {
            platform.restart("deletion-service");
        }

        JsonNode purged = awaitState(requestId, "PURGED");
        assertThat(profileExists(member))
                .as("the reconciler's re-published task deleted the profile")
                .isFalse();
        assertThat(cacheEntryExists(member)).isFalse();
        Instant published = Instant.parse(purged.path("publishedAt").asString());
        Instant purgedAt = Instant.parse(purged.path("purgedAt").asString());
        assertThat(Duration.between(published, purgedAt))
                .as("not before the reconciler's threshold (1 minute here)")
                .isGreaterThanOrEqualTo(Duration.ofMinutes(1));
    }

    /**
     * Commits the deletion service's groups (its own and each store lane's, {@code deletion-service.<store>}) at the
     * end of every task partition; waits until their dead members have left.
     */
    private static void skipEveryTask(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(List.of(Topics.DELETION_TASKS))
                    .allTopicNames()
                    .get()
                    .get(Topics.DELETION_TASKS)
                    .partitions()
                    .forEach(p ->
                            latest.put(new TopicPartition(Topics.DELETION_TASKS, p.partition()), OffsetSpec.latest()));
            Map<TopicPartition, OffsetAndMetadata> ends = new HashMap<>();
            admin.listOffsets(latest)
                    .all()
                    .get()
                    .forEach((partition, offset) -> ends.put(partition, new OffsetAndMetadata(offset.offset())));
            List<String> groups = admin.listConsumerGroups().all().get().stream()
                    .map(g -> g.groupId())
                    .filter(g -> g.equals("deletion-service") || g.startsWith("deletion-service."))
                    .toList();
            assertThat(groups).as("the deletion service's consumer groups").contains("deletion-service");
            for (String group : groups) {
                // the killed consumers' sessions expire: until then the group refuses its offsets being moved
                await("the dead members of " + group + " to leave it")
                        .atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofSeconds(1))
                        .until(() -> admin.describeConsumerGroups(List.of(group))
                                .all()
                                .get()
                                .get(group)
                                .members()
                                .isEmpty());
                admin.alterConsumerGroupOffsets(group, ends).all().get();
            }
        }
    }

    private void policy(String dataset, Map<String, Object> policy) {
        owner.put("/api/datasets/" + dataset + "/forward-policy", policy).require("setting the policy of " + dataset);
    }

    private void registerOrderRecordsKeptAsSnapshots() {
        IdentifierSource orderIds = new IdentifierSource(
                "order-ids",
                StoreKind.POSTGRES,
                "pg-main",
                "demo",
                "orders",
                "order_id",
                "updated_at",
                S3Layout.defaultBackupLocation("order-ids", BackupFormat.JSONL_GZIP),
                Duration.ZERO);
        owner.post("/api/identifier-sources", orderIds).require("registering order-ids");
        DatasetSpec records = DatasetSpec.builder()
                .name("order-records")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace("demo")
                .table("orders")
                .keyColumns(KeyColumns.partitionOnly("order_id"))
                .identifierColumn("order_id")
                .identifierSource("order-ids")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation("order-records", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.1))
                .ownerTeam(DemoCycle.TEAM)
                .build();
        owner.post("/api/datasets", records).require("registering order-records");
        owner.put("/api/datasets/order-records/forward-policy", Map.of("action", "KEEP_SNAPSHOT"))
                .require("keeping order records as snapshots");
    }

    private JsonNode awaitState(String requestId, String state) {
        return await("request " + requestId + " to reach " + state)
                .atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(1))
                .until(
                        () -> operator.get("/api/forward-requests/" + requestId).require("reading the request"),
                        request -> state.equals(request.path("state").asString()));
    }

    private boolean profileExists(long memberId) {
        return shared.profileExists(memberId);
    }

    private boolean cacheEntryExists(long memberId) {
        RedisEngine redis = platform.engine(RedisEngine.class);
        try (RedisClient client = RedisClient.create("redis://" + redis.host() + ":" + redis.port());
                StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().exists("profile:" + memberId) == 1;
        }
    }

    private long orderCount(long member) throws Exception {
        return count("SELECT count(*) FROM demo.orders WHERE member_id = ?", member);
    }

    private long itemCount(long member) throws Exception {
        return count(
                "SELECT count(*) FROM demo.order_items i JOIN demo.orders o ON o.order_id = i.order_id"
                        + " WHERE o.member_id = ?",
                member);
    }

    private long count(String sql, long member) throws Exception {
        PostgresEngine postgres = platform.engine(PostgresEngine.class);
        try (Connection pg = DriverManager.getConnection(postgres.jdbcUrl(), PostgresEngine.USER, postgres.password());
                var count = pg.prepareStatement(sql)) {
            count.setLong(1, member);
            try (var rs = count.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
