package io.erasure.recovery.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.deletionlog.client.SealedRecords;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.recovery.RecoveryTestSupport;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.support.S3Properties;
import io.erasure.support.stores.StoreAdapterPool;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.JsonNode;

/**
 * A row too large for one Kafka message is logged with its columns under {@code retained/} in S3 and only the reference
 * in the record (sealed with the dataset's key, or in clear from before sealing); a recovery fetches the retained
 * columns and restores the row exactly, like any other.
 */
class RetainedRowRecoveryIT extends RecoveryTestSupport {

    private static final long WRITTEN = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(WRITTEN + 1_000_000);

    @Autowired
    StoreAdapterPool adapters;

    @Autowired
    S3Client s3;

    @Autowired
    S3Properties s3Properties;

    @Test
    void aRowRetainedInS3IsRestoredExactly() {
        restoredExactly(true);
    }

    @Test
    void aRowRetainedInClearBeforeSealingExistedIsRestoredExactly() {
        restoredExactly(false);
    }

    private void restoredExactly(boolean sealed) {
        String table = unique("notes");
        jdbc.execute("CREATE SCHEMA IF NOT EXISTS recovery_it");
        jdbc.execute("CREATE TABLE recovery_it." + table
                + " (id bigint PRIMARY KEY, body text, updated_at timestamptz NOT NULL)");
        DatasetSpec spec = DatasetSpec.builder()
                .name(table.replace('_', '-'))
                .storeKind(StoreKind.POSTGRES)
                .connectionRef(POSTGRES)
                .namespace("recovery_it")
                .table(table)
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(new BackupLocation("backups/recovery-it/", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("erasure-tests")
                .build();
        OffsetDateTime updated = OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(WRITTEN), ZoneOffset.UTC);
        String body = "復元".repeat(250_000);
        jdbc.update("INSERT INTO recovery_it." + table + " VALUES (1, ?, ?), (2, 'small', ?)", body, updated, updated);
        List<Map<String, Object>> before =
                jdbc.queryForList("SELECT id, body, updated_at FROM recovery_it." + table + " ORDER BY id");
        RunId run = RunId.of(unique("run"));

        logRetainedAndDelete(spec, run, List.of(1L, 2L), sealed);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM recovery_it." + table, Long.class))
                .isZero();

        JsonNode restore = recover("{\"scope\":{\"type\":\"run\",\"runId\":\"" + run + "\"},\"spec\":"
                + json.writeValueAsString(spec) + ",\"dryRun\":false,\"reason\":\"deleted by mistake\"}");

        assertThat(restore.get("status").asString()).isEqualTo("COMPLETED");
        assertThat(restore.get("restored").asLong()).as(restore.toString()).isEqualTo(2);
        assertThat(jdbc.queryForList("SELECT id, body, updated_at FROM recovery_it." + table + " ORDER BY id"))
                .isEqualTo(before);
    }

    /** What the deletion service does with a row too large for a message: columns to S3, the reference to the log. */
    private void logRetainedAndDelete(DatasetSpec spec, RunId run, List<Long> ids, boolean sealed) {
        SealedRecords sealing = new SealedRecords(log.keys(), json);
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        List<Map<String, Object>> keys =
                ids.stream().map(id -> Map.<String, Object>of("id", id)).toList();
        List<LiveRow> rows = adapter.readRows(spec, keys);
        DeletionTask task = DeletionTask.forRun(run, spec, keys, CUTOFF);
        List<DeletionRecord> records = rows.stream()
                .map(row -> {
                    DeletionRecord record = DeletionRecord.of(task, "batch-1", row.key(), row.columns(), Instant.now());
                    String key = S3Layout.retainedKey(record.dataset(), record.originId(), record.recordId());
                    s3.putObject(
                            r -> r.bucket(s3Properties.bucket()).key(key),
                            sealed
                                    ? RequestBody.fromBytes(
                                            sealing.sealRetained(record, sealing.currentKey(record.dataset())))
                                    : RequestBody.fromString(json.writeValueAsString(record.columns())));
                    return json.readValue(
                            json.writeValueAsString(record.withRetainedColumns(key)), DeletionRecord.class);
                })
                .toList();
        assertThat(records).allSatisfy(r -> assertThat(r.columns()).isEmpty());
        logUnder(task, records);
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "batch-1", CUTOFF, keys)));
    }
}
