package io.erasure.model.record;

import static io.erasure.model.Fixtures.CUTOFF;
import static io.erasure.model.Fixtures.JSON;
import static io.erasure.model.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.Fixtures;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeletionRecordTest {

    private static final Instant DELETED_AT = Instant.parse("2024-01-31T03:00:00.123456Z");
    private final Map<String, Object> pk = key("customer_id", 42, "order_id", "o-9");
    private final DeletionTask task = DeletionTask.forRun(RunId.of("run-1"), Fixtures.orders(), List.of(pk), CUTOFF);
    private final List<ColumnValue> columns = List.of(
            new ColumnValue("customer_id", 42, null, null),
            new ColumnValue("order_id", "o-9", null, null),
            new ColumnValue("total", 1999, 1_706_660_000_000_000L, 86_400),
            new ColumnValue("note", null, 1_706_660_000_000_001L, null));

    @Test
    void recordIdIsDeterministicAndCanonical() {
        String id = DeletionRecord.recordIdFor("run-1", "orders", pk);
        assertThat(id).matches("[0-9a-f]{64}");
        assertThat(DeletionRecord.recordIdFor("run-1", "orders", key("order_id", "o-9", "customer_id", 42L)))
                .as("column order and integer width do not change the id")
                .isEqualTo(id);
        assertThat(DeletionRecord.of(task, task.batchId(0), pk, columns, DELETED_AT)
                        .recordId())
                .isEqualTo(id);
    }

    @Test
    void differentRowsRunsOrDatasetsGetDifferentIds() {
        String id = DeletionRecord.recordIdFor("run-1", "orders", pk);
        assertThat(DeletionRecord.recordIdFor("run-1", "orders", key("customer_id", 42, "order_id", "o-8")))
                .isNotEqualTo(id);
        assertThat(DeletionRecord.recordIdFor("run-1", "orders", key("customer_id", "42", "order_id", "o-9")))
                .isNotEqualTo(id);
        assertThat(DeletionRecord.recordIdFor("run-2", "orders", pk)).isNotEqualTo(id);
        assertThat(DeletionRecord.recordIdFor("run-1", "orders-v2", pk)).isNotEqualTo(id);
    }

    @Test
    void takesIdsAndCutoffFromTheTask() {
        DeletionRecord record = DeletionRecord.of(task, task.batchId(0), pk, columns, DELETED_AT);
        assertThat(record.runId()).isEqualTo(RunId.of("run-1"));
        assertThat(record.requestId()).isNull();
        assertThat(record.taskId()).isEqualTo(task.taskId());
        assertThat(record.cutoff()).isEqualTo(CUTOFF);
        assertThat(record.idMatchesContent()).isTrue();
        // the primary key is a column value: it travels hashed, and one row's records still share a partition
        assertThat(Topics.logKey(record))
                .matches("orders\\|[0-9a-f]{64}")
                .doesNotContain("o-9")
                .isEqualTo(Topics.logKey("orders", Map.of("order_id", "o-9", "customer_id", 42)));
    }

    @Test
    void roundTripsThroughJson() {
        DeletionRecord record = DeletionRecord.of(task, task.batchId(0), pk, columns, DELETED_AT);
        String json = JSON.writeValueAsString(record);
        DeletionRecord back = JSON.readValue(json, DeletionRecord.class);
        assertThat(back).isEqualTo(record);
        assertThat(back.idMatchesContent()).isTrue();
        assertThat(JSON.readTree(json).get("deletedAt").asString()).isEqualTo("2024-01-31T03:00:00.123456Z");
        assertThat(JSON.readTree(json).get("cutoff").asLong()).isEqualTo(CUTOFF.micros());
    }

    @Test
    void largeRowsPointIntoRetained() {
        DeletionRecord record = DeletionRecord.of(task, task.batchId(0), pk, columns, DELETED_AT);
        String ref = S3Layout.retainedKey("orders", "run-1", record.recordId());
        DeletionRecord retained = record.withRetainedColumns(ref);
        assertThat(retained.columns()).isEmpty();
        assertThat(retained.retainedRef()).isEqualTo("retained/orders/run-1/" + record.recordId() + ".json.gz");
        assertThat(JSON.readValue(JSON.writeValueAsString(retained), DeletionRecord.class))
                .isEqualTo(retained);

        assertThatThrownBy(() -> record.withRetainedColumns("runs/run-1/x"))
                .hasMessageStartingWith("record.retainedRef must be an S3 key under 'retained/orders/'");
        assertThatThrownBy(() -> DeletionRecord.of(task, task.batchId(0), pk, List.of(), DELETED_AT))
                .hasMessageStartingWith("record.columns must hold the row's columns, or retainedRef");
    }

    @Test
    void validatesItsParts() {
        assertThatThrownBy(() -> DeletionRecord.of(
                        task,
                        task.batchId(0),
                        pk,
                        List.of(ColumnValue.of("total", 1), ColumnValue.of("total", 2)),
                        DELETED_AT))
                .hasMessage("record.columns lists column 'total' twice");
        assertThatThrownBy(() -> new ColumnValue("total", 1, null, -1)).hasMessageContaining("ttlSeconds must be >= 0");
        assertThatThrownBy(() -> new DeletionRecord(
                        "not-a-hash",
                        "orders",
                        pk,
                        columns,
                        CUTOFF,
                        RunId.of("run-1"),
                        null,
                        task.taskId(),
                        "b",
                        DELETED_AT,
                        null))
                .hasMessageStartingWith("record.recordId must be 64 lower-case hex");
        assertThatThrownBy(() -> DeletionRecord.of(task, "Batch 1", pk, columns, DELETED_AT))
                .hasMessageStartingWith("record.batchId must match");
    }
}
