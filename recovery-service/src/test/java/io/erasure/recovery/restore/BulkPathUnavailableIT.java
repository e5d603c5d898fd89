package io.erasure.recovery.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.recovery.RecoveryTestSupport;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.support.stores.StoreAdapterPool;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A service whose bulk path cannot start its SSTable writer (its classpath names nothing usable, as a deployment
 * without the writer folder): a Cassandra recovery over {@code erasure.recovery.bulk-threshold} restores online,
 * exactly, and the recovery says why, instead of failing.
 */
@TestPropertySource(properties = "erasure.recovery.bulk-writer-classpath=/nonexistent/erasure-sstable-writer/*")
class BulkPathUnavailableIT extends RecoveryTestSupport {

    private static final long WRITTEN = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(WRITTEN + 1_000_000);
    private static final int ROWS = BULK_THRESHOLD + 5;

    @Autowired
    StoreAdapterPool adapters;

    @Test
    void aRecoveryOverTheBulkThresholdWithoutTheBulkPathRestoresOnlineExactlyAndSaysWhy() {
        DatasetSpec spec = cassandraTable();
        List<Long> ids = LongStream.rangeClosed(1, ROWS).boxed().toList();
        for (long id : ids) {
            session.execute(session.prepare("INSERT INTO " + spec.quotedTable()
                            + " (id, name, email, score) VALUES (?, ?, ?, ?)" + " USING TIMESTAMP ? AND TTL ?")
                    .bind(
                            id,
                            "name-" + id,
                            id % 4 == 0 ? null : "user" + id + "@example.com",
                            (int) id * 10,
                            WRITTEN,
                            id % 2 == 0 ? 0 : 3600));
        }
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        Map<Long, LiveRow> before = byId(adapter.readRows(spec, keys(ids)));
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, ids);

        String body = "{\"scope\":{\"type\":\"run\",\"runId\":\"" + run + "\"},\"spec\":"
                + json.writeValueAsString(spec) + ",\"dryRun\":%s,\"reason\":\"deleted by mistake\"}";
        JsonNode dryRun = recover(body.formatted("true"));

        assertThat(dryRun.get("path").asString()).as(dryRun.toString()).isEqualTo("ONLINE");
        assertThat(dryRun.get("pathReason").asString()).contains("erasure.recovery.bulk-writer-classpath");

        JsonNode restore = recover(body.formatted("false"));

        assertThat(restore.get("status").asString()).as(restore.toString()).isEqualTo("COMPLETED");
        assertThat(restore.get("path").asString()).isEqualTo("ONLINE");
        assertThat(restore.get("pathReason").asString())
                .as("why a recovery over the threshold went online")
                .contains("bulk")
                .contains(Integer.toString(BULK_THRESHOLD))
                .contains("erasure.recovery.bulk-writer-classpath");
        assertThat(restore.get("restored").asLong()).isEqualTo(ROWS);
        assertThat(restore.get("failed").asLong()).isZero();
        Map<Long, LiveRow> after = byId(adapter.readRows(spec, keys(ids)));
        assertThat(after).hasSize(ROWS);
        for (long id : ids) {
            assertThat(values(after.get(id))).as("row %d", id).isEqualTo(values(before.get(id)));
            for (ColumnValue column : after.get(id).columns()) {
                if (column.writeTimeMicros() != null) {
                    assertThat(column.writeTimeMicros()).isEqualTo(CUTOFF.restoreWriteTimeMicros());
                }
            }
        }
        JsonNode listed = null;
        for (JsonNode entry : get("/api/recoveries?limit=500")) {
            if (entry.get("id").asString().equals(restore.get("id").asString())) {
                listed = entry;
            }
        }
        assertThat(listed).isNotNull();
        assertThat(listed.get("pathReason").asString())
                .as("the history keeps the reason")
                .isEqualTo(restore.get("pathReason").asString());
    }

    // --- fixtures

    private DatasetSpec cassandraTable() {
        String table = unique("unbulked");
        session.execute("CREATE KEYSPACE IF NOT EXISTS recovery_it WITH replication = {'class': 'SimpleStrategy',"
                + " 'replication_factor': 1}");
        session.execute(
                "CREATE TABLE recovery_it." + table + " (id bigint PRIMARY KEY, name text, email text, score int)");
        return DatasetSpec.builder()
                .name(table.replace('_', '-'))
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef(CASSANDRA)
                .namespace("recovery_it")
                .table(table)
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(new BackupLocation("backups/recovery-it/", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("erasure-tests")
                .build();
    }

    /** What the deletion service does: read the live rows, log them, then delete at the cut-off. */
    private void logAndDelete(DatasetSpec spec, RunId run, List<Long> ids) {
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        List<Map<String, Object>> keys = keys(ids);
        List<LiveRow> rows = adapter.readRows(spec, keys);
        assertThat(rows).hasSize(ids.size());
        DeletionTask task = DeletionTask.forRun(run, spec, keys, CUTOFF);
        logUnder(
                task,
                rows.stream()
                        .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), Instant.now()))
                        .map(record -> json.readValue(json.writeValueAsString(record), DeletionRecord.class))
                        .toList());
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "batch-1", CUTOFF, keys)));
        assertThat(adapter.checkLiveState(spec, keys)).noneMatch(state -> state.present());
    }

    private static List<Map<String, Object>> keys(List<Long> ids) {
        return ids.stream().<Map<String, Object>>map(id -> Map.of("id", id)).toList();
    }

    private static Map<Long, LiveRow> byId(List<LiveRow> rows) {
        Map<Long, LiveRow> byId = new HashMap<>();
        rows.forEach(row -> byId.put(((Number) row.key().get("id")).longValue(), row));
        return byId;
    }

    private static Map<String, Object> values(LiveRow row) {
        Map<String, Object> values = new TreeMap<>();
        row.columns().forEach(column -> values.put(column.name(), column.value() == null ? "<null>" : column.value()));
        return values;
    }
}
