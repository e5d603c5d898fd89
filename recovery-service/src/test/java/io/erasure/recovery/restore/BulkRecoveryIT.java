package io.erasure.recovery.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
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
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A Cassandra recovery over {@code erasure.recovery.bulk-threshold} (set low for the recovery tests, see
 * {@link RecoveryTestSupport}) takes the bulk path: SSTables written by the child JVM, imported into the real
 * node, read back. Rows are read through the adapter, logged as deletion records and deleted at the cut-off,
 * as the deletion service does, then recovered by run through the API.
 */
class BulkRecoveryIT extends RecoveryTestSupport {

    private static final long WRITTEN = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(WRITTEN + 1_000_000);
    private static final int ROWS = BULK_THRESHOLD + 10;
    private static final long REINSERTED = 7;
    private static final long SHORT_LIVED = ROWS + 1;

    @Autowired
    StoreAdapterPool adapters;

    @Test
    void aLargeCassandraRecoveryByRunTakesTheBulkPathRestoresRowsIdenticalAndKeepsANewerRow() {
        DatasetSpec spec = cassandraTable();
        List<Long> ids = LongStream.rangeClosed(1, ROWS).boxed().toList();
        for (long id : ids) {
            // no TTL, a long TTL on every column, or a TTL on email only
            write(
                    spec,
                    id,
                    "name-" + id,
                    id % 5 == 0 ? null : "user" + id + "@example.com",
                    (int) id * 10,
                    id % 3 == 0 ? 0 : 3600,
                    id % 3 == 1 ? 7200 : null);
        }
        write(spec, SHORT_LIVED, "short-lived", "s@example.com", 1, 60, null);
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        Map<Long, LiveRow> before = byId(adapter.readRows(spec, keys(ids)));
        assertThat(before).hasSize(ROWS);
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, ids, Instant.now());
        // deleted two minutes ago with a minute left: by now it would have expired on its own
        logAndDelete(spec, run, List.of(SHORT_LIVED), Instant.now().minus(2, ChronoUnit.MINUTES));
        // written by the application after the delete: its cell must survive the recovery, the others come back
        session.execute("INSERT INTO " + spec.quotedTable() + " (id, name) VALUES (" + REINSERTED + ", 'new-7')");

        String body = "{\"scope\":{\"type\":\"run\",\"runId\":\"" + run + "\"},\"spec\":"
                + json.writeValueAsString(spec) + ",\"dryRun\":%s,\"reason\":\"deleted by mistake\"}";
        JsonNode dryRun = recover(body.formatted("true"));

        assertThat(dryRun.get("status").asString()).as(dryRun.toString()).isEqualTo("COMPLETED");
        assertThat(dryRun.get("path").asString())
                .as("the path a restore would take")
                .isEqualTo("BULK");
        Map<Long, String> assessed = outcomes(dryRun);
        assertThat(assessed)
                .hasSize(ROWS + 1)
                .containsEntry(REINSERTED, "RESTORABLE")
                .containsEntry(SHORT_LIVED, "EXPIRED")
                .containsEntry(1L, "RESTORABLE");
        assertThat(assessed.values()).filteredOn("RESTORABLE"::equals).hasSize(ROWS);
        assertThat(row(spec, 1))
                .as("a dry-run writes nothing, on the bulk path too")
                .isNull();

        JsonNode restore = recover(body.formatted("false"));

        assertThat(restore.get("status").asString()).as(restore.toString()).isEqualTo("COMPLETED");
        assertThat(restore.get("path").asString()).isEqualTo("BULK");
        Map<Long, String> outcomes = outcomes(restore);
        assertThat(outcomes)
                .hasSize(ROWS + 1)
                .containsEntry(REINSERTED, "RESTORED")
                .containsEntry(SHORT_LIVED, "EXPIRED");
        assertThat(outcomes.values()).filteredOn("RESTORED"::equals).hasSize(ROWS);
        assertThat(restore.get("restored").asLong()).isEqualTo(ROWS);
        assertThat(restore.get("conflicts").asLong()).isZero();
        assertThat(restore.get("expired").asLong()).isEqualTo(1);
        assertThat(restore.get("failed").asLong()).isZero();
        assertThat(restore.get("recordsDone").asLong())
                .isEqualTo(restore.get("recordsTotal").asLong())
                .isEqualTo(ROWS + 1);

        Map<Long, LiveRow> after = byId(adapter.readRows(spec, keys(ids)));
        for (long id : ids) {
            if (id == REINSERTED) {
                continue;
            }
            assertThat(values(after.get(id))).as("row %d", id).isEqualTo(values(before.get(id)));
            for (ColumnValue column : after.get(id).columns()) {
                ColumnValue was = column(before.get(id), column.name());
                if (column.writeTimeMicros() != null) {
                    assertThat(column.writeTimeMicros())
                            .as("row %d %s restored at the cut-off + 1 µs", id, column.name())
                            .isEqualTo(CUTOFF.restoreWriteTimeMicros());
                }
                if (was.ttlSeconds() == null) {
                    assertThat(column.ttlSeconds())
                            .as("row %d %s: no TTL before, none after", id, column.name())
                            .isNull();
                } else {
                    assertThat(column.ttlSeconds())
                            .as("row %d %s: the remaining TTL", id, column.name())
                            .isBetween(was.ttlSeconds() - 120, was.ttlSeconds());
                }
            }
        }
        Row kept = row(spec, REINSERTED);
        assertThat(kept.getString("name")).as("the newer cell is kept").isEqualTo("new-7");
        assertThat(kept.getString("email"))
                .as("a cell without a newer one is restored")
                .isEqualTo("user7@example.com");
        assertThat(kept.getLong("wt")).isGreaterThan(CUTOFF.restoreWriteTimeMicros());
        assertThat(row(spec, SHORT_LIVED))
                .as("an expired record is not written")
                .isNull();
        assertThat(StreamSupport.stream(get("/api/recoveries?limit=500").spliterator(), false)
                        .filter(r ->
                                r.get("id").asString().equals(restore.get("id").asString()))
                        .map(r -> r.get("path").asString()))
                .as("the history says which path was taken")
                .containsExactly("BULK");
    }

    @Test
    void aRecoveryUnderTheThresholdStaysOnline() {
        DatasetSpec spec = cassandraTable();
        List<Long> ids = LongStream.rangeClosed(1, BULK_THRESHOLD - 1).boxed().toList();
        ids.forEach(id -> write(spec, id, "name-" + id, null, 1, 0, null));
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, ids, Instant.now());

        JsonNode restore = recover("{\"scope\":{\"type\":\"run\",\"runId\":\"" + run + "\"},\"spec\":"
                + json.writeValueAsString(spec) + ",\"dryRun\":false,\"reason\":\"test\"}");

        assertThat(restore.get("path").asString()).isEqualTo("ONLINE");
        assertThat(restore.get("restored").asLong()).isEqualTo(ids.size());
        assertThat(row(spec, 1).getLong("wt")).isEqualTo(CUTOFF.restoreWriteTimeMicros());
    }

    @Test
    void anAnonymisationInABulkRecoveryIsRestoredOnlineColumnsOnly() {
        DatasetSpec spec = cassandraTable();
        long anonymised = ROWS + 5;
        List<Long> ids = LongStream.rangeClosed(1, BULK_THRESHOLD).boxed().toList();
        ids.forEach(id -> write(spec, id, "name-" + id, "user" + id + "@example.com", 1, 0, null));
        write(spec, anonymised, "kept-name", "anonymised@example.com", 1, 0, null);
        Instant windowStart = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(10, ChronoUnit.MINUTES);
        logAndDelete(spec, RunId.of(unique("run")), ids, windowStart.plusSeconds(60));
        logAndAnonymise(spec, unique("request"), anonymised, "email", windowStart.plusSeconds(120));

        JsonNode restore = recover("{\"scope\":{\"type\":\"timeWindow\",\"dataset\":\"" + spec.name() + "\",\"from\":\""
                + windowStart + "\",\"to\":\"" + windowStart.plus(5, ChronoUnit.MINUTES) + "\"},\"spec\":"
                + json.writeValueAsString(spec) + ",\"dryRun\":false,\"reason\":\"test\"}");

        assertThat(restore.get("status").asString()).as(restore.toString()).isEqualTo("COMPLETED");
        assertThat(restore.get("path").asString())
                .as("the whole rows are enough for the bulk path")
                .isEqualTo("BULK");
        Map<Long, String> outcomes = outcomes(restore);
        assertThat(outcomes).hasSize(BULK_THRESHOLD + 1).containsEntry(anonymised, "RESTORED");
        assertThat(outcomes.values()).containsOnly("RESTORED");
        Row row = session.execute(
                        session.prepare("SELECT name, email, WRITETIME(name) AS name_wt, WRITETIME(email) AS email_wt"
                                        + " FROM " + spec.quotedTable() + " WHERE id = ?")
                                .bind(anonymised))
                .one();
        assertThat(row.getString("email")).as("the cleared column is back").isEqualTo("anonymised@example.com");
        assertThat(row.getLong("email_wt")).isEqualTo(CUTOFF.restoreWriteTimeMicros());
        assertThat(row.getString("name")).isEqualTo("kept-name");
        assertThat(row.getLong("name_wt"))
                .as("a column the record does not hold is not rewritten")
                .isEqualTo(WRITTEN);
        assertThat(row(spec, 1).getString("email")).isEqualTo("user1@example.com");
    }

    // --- fixtures

    private DatasetSpec cassandraTable() {
        String table = unique("bulk_profiles");
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

    /** One row at {@link #WRITTEN}; {@code ttl} 0 is none, {@code emailTtl} (if set) overrides it for email. */
    private void write(DatasetSpec spec, long id, String name, String email, int score, int ttl, Integer emailTtl) {
        session.execute(session.prepare("INSERT INTO " + spec.quotedTable()
                        + " (id, name, email, score) VALUES (?, ?, ?, ?)" + " USING TIMESTAMP ? AND TTL ?")
                .bind(id, name, email, score, WRITTEN, ttl));
        if (emailTtl != null && email != null) {
            session.execute(session.prepare("UPDATE " + spec.quotedTable()
                            + " USING TIMESTAMP ? AND TTL ? SET email = ?" + " WHERE id = ?")
                    .bind(WRITTEN, emailTtl, email, id));
        }
    }

    /** What the deletion service does: read the live rows, log them, then delete at the cut-off. */
    private void logAndDelete(DatasetSpec spec, RunId run, List<Long> ids, Instant deletedAt) {
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        List<Map<String, Object>> keys = keys(ids);
        List<LiveRow> rows = adapter.readRows(spec, keys);
        assertThat(rows).hasSize(ids.size());
        DeletionTask task = DeletionTask.forRun(run, spec, keys, CUTOFF);
        List<DeletionRecord> records = rows.stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), deletedAt))
                // through JSON, as the records travel on the topic
                .map(record -> json.readValue(json.writeValueAsString(record), DeletionRecord.class))
                .toList();
        logUnder(task, records);
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "batch-1", CUTOFF, keys)));
        assertThat(adapter.checkLiveState(spec, keys)).noneMatch(state -> state.present());
    }

    /**
     * What forward deletion's anonymisation does: log the live value of {@code column}, then clear it at the cut-off.
     */
    private void logAndAnonymise(DatasetSpec spec, String requestId, long id, String column, Instant deletedAt) {
        Map<String, Object> key = Map.of("id", id);
        LiveRow live =
                adapters.checkedAdapter(spec).readRows(spec, List.of(key)).get(0);
        DeletionTask task =
                DeletionTask.forward(requestId, spec, List.of(key), CUTOFF, spec.priority(), List.of(column));
        DeletionRecord record =
                DeletionRecord.of(task, "batch-1", live.key(), List.of(column(live, column)), deletedAt);
        assertThat(record.anonymised()).isTrue();
        logUnder(task, List.of(json.readValue(json.writeValueAsString(record), DeletionRecord.class)));
        session.execute(
                session.prepare("DELETE " + column + " FROM " + spec.quotedTable() + " USING TIMESTAMP ? WHERE id = ?")
                        .bind(CUTOFF.micros(), id));
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

    private static ColumnValue column(LiveRow row, String name) {
        return row.columns().stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no column " + name + " in " + row));
    }

    private Row row(DatasetSpec spec, long id) {
        return session.execute(session.prepare("SELECT name, email, WRITETIME(name) AS wt FROM " + spec.quotedTable()
                                + " WHERE id = ?")
                        .bind(id))
                .one();
    }

    /** The outcome per id of a finished recovery. */
    private Map<Long, String> outcomes(JsonNode request) {
        Map<Long, String> byId = new HashMap<>();
        for (JsonNode item : get("/api/recoveries/" + request.get("id").asString() + "/outcomes?limit=5000")) {
            byId.put(
                    item.get("primaryKey").get("id").asLong(),
                    item.get("outcome").asString());
        }
        return byId;
    }
}
