package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.kafka.TopicRecords;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.event.LookupResolved;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.task.DeletionTask;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Forward deletion of a member's orders, found through the index on {@code member_id} (the identifier is not the
 * orders' key): the lookup publishes the rows' tasks and reports them, the tasks delete (or anonymise) only rows
 * written before the request's cut-off, and a table without such an index is refused with the fix.
 */
class ForwardLookupIT extends DeletionTestSupport {

    private static final String SCHEMA = "forward_lookup";

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    private CutoffTimestamp cutoff;

    @BeforeEach
    void orders() {
        jdbc.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        jdbc.execute("CREATE SCHEMA " + SCHEMA);
        for (String table : List.of("orders", "notes")) {
            jdbc.execute(
                    "CREATE TABLE " + SCHEMA + "." + table + " (order_id bigint PRIMARY KEY, member_id bigint NOT NULL,"
                            + " email text, total numeric NOT NULL, updated_at timestamptz NOT NULL)");
        }
        jdbc.execute("CREATE INDEX ON " + SCHEMA + ".orders (member_id)");
        Instant now = Instant.now();
        cutoff = CutoffTimestamp.fromInstant(now);
        Timestamp before = Timestamp.from(now.minus(Duration.ofDays(2)));
        Timestamp after = Timestamp.from(now.plus(Duration.ofHours(1)));
        for (String table : List.of("orders", "notes")) {
            jdbc.update(
                    "INSERT INTO " + SCHEMA + "." + table + " VALUES (1, 7, 'a@x', 10, ?), (2, 7, 'a@x', 20, ?),"
                            + " (3, 7, 'a@x', 30, ?), (4, 7, 'a@x', 40, ?), (5, 8, 'b@x', 50, ?), (6, 9, 'c@x', 60, ?)",
                    before,
                    before,
                    before,
                    after,
                    before,
                    before);
        }
    }

    @Test
    void aMembersOrdersAreFoundThroughTheIndexAndOnlyThoseWrittenBeforeTheCutoffGo() throws Exception {
        String requestId = "req-lookup-" + System.nanoTime();
        DeletionTask lookup = DeletionTask.forwardLookup(
                requestId, spec("orders"), List.of(Map.of("member_id", 7L)), cutoff, 9, List.of());
        send(lookup);

        LookupResolved resolved = resolutionOf(requestId, lookup.taskId());
        assertThat(resolved.resolution().refused()).isFalse();
        assertThat(resolved.resolution().keys())
                .as("every row of member 7, the newer one too")
                .isEqualTo(4);
        assertThat(resolved.resolution().taskIds()).hasSize(1);

        BatchCompleted deleted =
                batchOf(requestId, resolved.resolution().taskIds().get(0));
        assertThat(deleted.counts().deleted()).isEqualTo(3);
        assertThat(deleted.counts().skippedNewer())
                .as("order 4 was written after the request")
                .isEqualTo(1);
        assertThat(orderIds("orders")).containsExactly(4L, 5L, 6L);
        List<DeletionRecord> logged = records(requestId, 3);
        assertThat(logged)
                .extracting(r -> r.primaryKey().get("order_id"))
                .map(v -> ((Number) v).longValue())
                .containsExactlyInAnyOrder(1L, 2L, 3L);
        assertThat(logged).noneMatch(DeletionRecord::anonymised);

        // the reconciler re-publishes the lookup: the same tasks go out again, though three of the rows are gone now
        send(lookup);
        List<LookupResolved> reports = resolutionsOf(requestId, lookup.taskId(), 2);
        assertThat(reports).hasSize(2).allSatisfy(report -> {
            assertThat(report.resolution().taskIds())
                    .isEqualTo(resolved.resolution().taskIds());
            assertThat(report.resolution().keys()).isEqualTo(4);
        });
        String resolvedTask = resolved.resolution().taskIds().get(0);
        assertThat(TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.DELETION_TASKS,
                        this::taskOrNull,
                        t -> t != null && resolvedTask.equals(t.taskId()),
                        2,
                        Duration.ofSeconds(60)))
                .as("published again, with the same keys")
                .hasSize(2)
                .allSatisfy(t -> assertThat(t.keys()).hasSize(4));
        assertThat(orderIds("orders")).containsExactly(4L, 5L, 6L);
    }

    @Test
    void aTableWithoutAnIndexOnTheIdentifierIsRefusedWithTheFixAndNothingIsDeleted() throws Exception {
        String requestId = "req-lookup-noindex-" + System.nanoTime();
        DeletionTask lookup = DeletionTask.forwardLookup(
                requestId, spec("notes"), List.of(Map.of("member_id", 7L)), cutoff, 9, List.of());
        send(lookup);

        LookupResolved refused = resolutionOf(requestId, lookup.taskId());
        assertThat(refused.resolution().refused()).isTrue();
        assertThat(refused.resolution().refusal()).contains("member_id").contains("CREATE INDEX");
        assertThat(orderIds("notes")).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);

        // indexed, but without a timestamp to tell a row moved to another member after the request: refused too
        DatasetSpec unconditioned = DatasetSpec.builder()
                .name("lookup-orders-unconditioned")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace(SCHEMA)
                .table("orders")
                .keyColumns(KeyColumns.partitionOnly("order_id"))
                .identifierColumn("member_id")
                .identifierSource("members")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation("lookup-orders-unconditioned", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("orders")
                .build();
        DeletionTask unsafe = DeletionTask.forwardLookup(
                requestId, unconditioned, List.of(Map.of("member_id", 7L)), cutoff, 9, List.of());
        send(unsafe);
        LookupResolved refusedToo = resolutionOf(requestId, unsafe.taskId());
        assertThat(refusedToo.resolution().refusal()).contains("updated_at");
        assertThat(orderIds("orders")).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
    }

    @Test
    void anAnonymisingLookupClearsTheColumnsKeepsTheRowsAndLogsOnlyTheClearedValues() throws Exception {
        String requestId = "req-lookup-anon-" + System.nanoTime();
        DeletionTask lookup = DeletionTask.forwardLookup(
                requestId, spec("orders"), List.of(Map.of("member_id", 8L)), cutoff, 9, List.of("email"));
        send(lookup);

        LookupResolved resolved = resolutionOf(requestId, lookup.taskId());
        BatchCompleted cleared =
                batchOf(requestId, resolved.resolution().taskIds().get(0));
        assertThat(cleared.counts().deleted()).isEqualTo(1);
        assertThat(cleared.stillPresent()).isZero();
        assertThat(orderIds("orders")).as("the row is kept").containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        Map<String, Object> row = jdbc.queryForMap("SELECT email, total FROM " + SCHEMA + ".orders WHERE order_id = 5");
        assertThat(row.get("email")).isNull();
        assertThat(((Number) row.get("total")).intValue()).isEqualTo(50);
        DeletionRecord record = records(requestId, 1).get(0);
        assertThat(record.anonymised()).isTrue();
        assertThat(record.columns()).extracting(ColumnValue::name).containsExactly("email");
        assertThat(record.columns().get(0).value()).isEqualTo("b@x");
    }

    private DatasetSpec spec(String table) {
        String name = "lookup-" + table;
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace(SCHEMA)
                .table(table)
                .keyColumns(KeyColumns.partitionOnly("order_id"))
                .identifierColumn("member_id")
                .identifierSource("members")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("orders")
                .build();
    }

    private void send(DeletionTask task) throws Exception {
        kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(authorized(task)))
                .get(10, TimeUnit.SECONDS);
    }

    private LookupResolved resolutionOf(String requestId, String taskId) {
        return resolutionsOf(requestId, taskId, 1).get(0);
    }

    private List<LookupResolved> resolutionsOf(String requestId, String taskId, int atLeast) {
        return eventsOf(
                LookupResolved.class, r -> requestId.equals(r.requestId()) && taskId.equals(r.taskId()), atLeast);
    }

    private BatchCompleted batchOf(String requestId, String taskId) {
        return eventsOf(BatchCompleted.class, b -> requestId.equals(b.requestId()) && taskId.equals(b.taskId()), 1)
                .get(0);
    }

    /** At least {@code atLeast} run events of {@code type} that {@code match}, waiting up to 90 s for them. */
    private <E extends EventPayload> List<E> eventsOf(Class<E> type, Predicate<E> match, int atLeast) {
        return TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> type.isInstance(e.payload()) && match.test(type.cast(e.payload())),
                        atLeast,
                        Duration.ofSeconds(90))
                .stream()
                .map(e -> type.cast(e.payload()))
                .toList();
    }

    private List<DeletionRecord> records(String requestId, int count) {
        return TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                Topics.DELETION_LOG,
                this::logged,
                r -> requestId.equals(r.requestId()),
                count,
                Duration.ofSeconds(60));
    }

    /** A task of the topic, or null for a message that is none (StoreLanesIT publishes unreadable ones). */
    private DeletionTask taskOrNull(String value) {
        try {
            return json.readValue(value, DeletionTask.class);
        } catch (JacksonException | IllegalArgumentException notATask) {
            return null;
        }
    }

    private List<Long> orderIds(String table) {
        return jdbc.queryForList("SELECT order_id FROM " + SCHEMA + "." + table + " ORDER BY order_id", Long.class);
    }
}
