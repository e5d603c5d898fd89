package io.erasure.deletionlog.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code anonymised} flag round-trips through the real log tables; rows and tables older than the flag read as
 * deletions.
 */
class AnonymisedRecordsIT {

    private static final String MASTER_KEY = "YW5vbnltaXNlZC1yZWNvcmRzLXRlc3QtbWFzdGVyISE=";
    private static final Instant DELETED_AT =
            Instant.now().truncatedTo(ChronoUnit.MILLIS).minus(Duration.ofHours(1));
    // the record tables' columns as first released, before anonymised existed
    private static final String LEGACY_COLUMNS =
            "record_id, dataset, key_hash, deleted_at, run_id, request_id, task_id,"
                    + " batch_id, cutoff_micros, key_version, payload, retained_ref";
    private static final String LEGACY_COLUMN_TYPES =
            "record_id text, dataset text, key_hash text, deleted_at timestamp,"
                    + " run_id text, request_id text, task_id text, batch_id text, cutoff_micros bigint,"
                    + " key_version int, payload blob, retained_ref text, ";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static CqlSession session;
    private static DeletionLog log;

    @BeforeAll
    static void logTables() {
        CassandraEngine cassandra = LocalEngines.cassandra();
        session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                .withLocalDatacenter(cassandra.localDatacenter())
                .build();
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + LogSchema.KEYSPACE
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        LogSchema.create(session, Duration.ofDays(30));
        LogSchema.create(
                session, Duration.ofDays(30)); // a restart of the service: every statement again, nothing fails
        log = DeletionLog.open(session, MASTER_KEY, Duration.ofDays(30), JSON, Clock.systemUTC());
    }

    @AfterAll
    static void close() {
        if (session != null) {
            session.close();
        }
    }

    @Test
    void anAnonymisationReadsBackAsOneByKeyWindowAndRunAndRestoresAsOne() {
        String dataset = "anon-" + System.nanoTime() % 1_000_000;
        String request = "request-" + System.nanoTime() % 1_000_000;
        Map<String, Object> anonymisedKey = Map.of("id", 1L);
        Map<String, Object> deletedKey = Map.of("id", 2L);
        long written = CutoffTimestamp.toMicros(DELETED_AT) - 60_000_000L;
        // an anonymisation holds only the columns it cleared
        DeletionRecord anonymisation = new DeletionRecord(
                DeletionRecord.recordIdFor(request, dataset, anonymisedKey),
                dataset,
                anonymisedKey,
                List.of(new ColumnValue("email", "1@example.com", written, 86_400)),
                CutoffTimestamp.fromInstant(DELETED_AT.minusSeconds(30)),
                null,
                request,
                "task-1",
                "batch-1",
                DELETED_AT,
                null,
                true);
        DeletionRecord deletion = new DeletionRecord(
                DeletionRecord.recordIdFor(request, dataset, deletedKey),
                dataset,
                deletedKey,
                List.of(ColumnValue.of("id", 2L), ColumnValue.of("email", "2@example.com")),
                CutoffTimestamp.fromInstant(DELETED_AT.minusSeconds(30)),
                null,
                request,
                "task-1",
                "batch-1",
                DELETED_AT,
                null);

        assertThat(log.writer().write(List.of(anonymisation, deletion)).written())
                .isEqualTo(2);

        LoggedRecord byKey =
                log.reader().byKey(dataset, anonymisedKey, true).records().get(0);
        assertThat(byKey.anonymised()).isTrue();
        assertThat(byKey.toDeletionRecord().anonymised())
                .as("restores as an anonymisation")
                .isTrue();
        assertThat(byKey.toDeletionRecord().columns()).isEqualTo(anonymisation.columns());
        assertThat(byKey.withoutColumns().anonymised()).isTrue();
        assertThat(log.reader()
                        .byKey(dataset, deletedKey, true)
                        .records()
                        .get(0)
                        .toDeletionRecord()
                        .anonymised())
                .isFalse();
        assertThat(flags(log.reader()
                        .window(dataset, DELETED_AT.minusSeconds(1), DELETED_AT.plusSeconds(1), 10, null, false)))
                .containsExactlyInAnyOrder(anonymisation.recordId() + "=true", deletion.recordId() + "=false");
        assertThat(flags(log.reader().run(request, 10, null, true)))
                .containsExactlyInAnyOrder(anonymisation.recordId() + "=true", deletion.recordId() + "=false");
        // the anonymised row was kept on purpose: finding it live later is no resurrection
        assertThat(new PriorDeletions(session).find(dataset, List.of(anonymisedKey, deletedKey)))
                .containsOnlyKeys(KeyHash.of(dataset, deletedKey));
    }

    @Test
    void aRecordLoggedBeforeTheColumnExistedReadsAsADeletion() {
        String dataset = "anon-legacy-" + System.nanoTime() % 1_000_000;
        RunId run = RunId.of("run-legacy-" + System.nanoTime() % 1_000_000);
        Map<String, Object> key = Map.of("id", 5L);
        DeletionRecord record = new DeletionRecord(
                DeletionRecord.recordIdFor(run.value(), dataset, key),
                dataset,
                key,
                List.of(ColumnValue.of("id", 5L), ColumnValue.of("name", "name-5")),
                CutoffTimestamp.fromInstant(DELETED_AT.minusSeconds(30)),
                run,
                null,
                "task-1",
                "batch-1",
                DELETED_AT,
                null);
        writeAsBeforeTheFlag(record);

        LoggedRecord byKey = log.reader().byKey(dataset, key, true).records().get(0);
        assertThat(byKey.purged()).as("payload readable").isFalse();
        assertThat(byKey.anonymised()).isFalse();
        assertThat(byKey.toDeletionRecord().anonymised())
                .as("restores as a whole row")
                .isFalse();
        assertThat(byKey.toDeletionRecord().columns())
                .extracting(ColumnValue::name)
                .containsExactly("id", "name");
        assertThat(flags(log.reader()
                        .window(dataset, DELETED_AT.minusSeconds(1), DELETED_AT.plusSeconds(1), 10, null, true)))
                .containsExactly(record.recordId() + "=false");
        assertThat(flags(log.reader().run(run.value(), 10, null, true))).containsExactly(record.recordId() + "=false");
        assertThat(new PriorDeletions(session).find(dataset, List.of(key))).containsOnlyKeys(KeyHash.of(dataset, key));
    }

    @Test
    void anOlderKeyspaceGetsTheColumnAndAddingItAgainChangesNothing() {
        // its own keyspace: the shared deletion_log keyspace already has the column and other tests write to it
        String keyspace = "deletion_log_upgrade_" + System.nanoTime() % 1_000_000;
        ddl("CREATE KEYSPACE " + keyspace + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        try {
            ddl("CREATE TABLE " + keyspace + ".records_by_key (" + LEGACY_COLUMN_TYPES
                    + "PRIMARY KEY ((dataset, key_hash), record_id))");
            ddl("CREATE TABLE " + keyspace + ".records_by_time (" + LEGACY_COLUMN_TYPES + "hour timestamp,"
                    + " PRIMARY KEY ((dataset, hour), deleted_at, record_id))");
            ddl("CREATE TABLE " + keyspace + ".records_by_run (" + LEGACY_COLUMN_TYPES + "origin_id text, shard int,"
                    + " PRIMARY KEY ((origin_id, shard), record_id))");
            session.execute(
                    "INSERT INTO " + keyspace + ".records_by_key (" + LEGACY_COLUMNS + ") VALUES ('r1', 'ds', 'h1',"
                            + " '2026-01-01T00:00:00Z', 'run-1', null, 'task-1', 'batch-1', 1, 1, 0x00, null)");

            for (int pass = 0; pass < 2; pass++) {
                for (String alter : LogSchema.addedColumns(keyspace)) {
                    ddl(alter);
                }
            }

            for (String table : List.of("records_by_key", "records_by_time", "records_by_run")) {
                Row column = session.execute(
                                "SELECT type FROM system_schema.columns WHERE keyspace_name = ? AND table_name = ?"
                                        + " AND column_name = 'anonymised'",
                                keyspace,
                                table)
                        .one();
                assertThat(column).as(table + ".anonymised").isNotNull();
                assertThat(column.getString("type")).isEqualTo("boolean");
            }
            Row old = session.execute("SELECT record_id, anonymised FROM " + keyspace + ".records_by_key"
                            + " WHERE dataset = 'ds' AND key_hash = 'h1'")
                    .one();
            assertThat(old.getString("record_id")).isEqualTo("r1");
            assertThat(old.isNull("anonymised")).isTrue();
            assertThat(LogReader.anonymised(old)).isFalse();
        } finally {
            ddl("DROP KEYSPACE IF EXISTS " + keyspace);
        }
    }

    /** Writes {@code record}'s three rows as LogWriter did before the flag: without the anonymised column. */
    private static void writeAsBeforeTheFlag(DeletionRecord record) {
        DatasetKeys.DataKey key = log.keys().current(record.dataset());
        byte[] plain = JSON.writeValueAsString(new Payload(record.primaryKey(), record.columns()))
                .getBytes(StandardCharsets.UTF_8);
        ByteBuffer payload = ByteBuffer.wrap(PayloadCipher.encrypt(key.key(), plain, record.recordId()));
        String keyHash = KeyHash.of(record.dataset(), record.primaryKey());
        String values = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";
        Object[] common = {
            record.recordId(),
            record.dataset(),
            keyHash,
            record.deletedAt(),
            record.runId().value(),
            record.requestId(),
            record.taskId(),
            record.batchId(),
            record.cutoff().micros(),
            key.version(),
            payload,
            null
        };
        session.execute(
                session.prepare("INSERT INTO " + LogSchema.BY_KEY + " (" + LEGACY_COLUMNS + ") VALUES (" + values + ")")
                        .bind(common));
        session.execute(session.prepare("INSERT INTO " + LogSchema.BY_TIME + " (" + LEGACY_COLUMNS + ", hour) VALUES ("
                        + values + ", ?)")
                .bind(append(common, LogWriter.hourOf(record.deletedAt()))));
        session.execute(session.prepare("INSERT INTO " + LogSchema.BY_RUN + " (" + LEGACY_COLUMNS
                        + ", origin_id, shard) VALUES (" + values + ", ?, ?)")
                .bind(append(common, record.originId(), LogWriter.shardOf(record.recordId()))));
    }

    private static void ddl(String cql) {
        // schema changes wait for agreement, longer than the driver's default request timeout
        session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(30)));
    }

    private static List<String> flags(LogPage page) {
        return page.records().stream()
                .map(r -> r.recordId() + "=" + r.anonymised())
                .toList();
    }

    private static Object[] append(Object[] head, Object... tail) {
        List<Object> all = new ArrayList<>(Arrays.asList(head));
        all.addAll(Arrays.asList(tail));
        return all.toArray();
    }
}
