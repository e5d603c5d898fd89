package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every CQL type survives read → deletion record (through JSON, as on Kafka) → delete → restore
 * unchanged, keys included: a blob and a timestamp key, decimals beyond double precision, NaN (also inside a
 * list and a tuple), nested blobs, UDTs frozen and not, tuples, vectors.
 */
class CassandraValueFidelityIT {

    private static final long BEFORE = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(BEFORE + 1_000_000);
    private static final JsonMapper KAFKA_LIKE = JsonMapper.builder().build();

    private static CqlSession direct;
    private static CassandraStoreAdapter adapter;
    private static DatasetSpec spec;

    @BeforeAll
    static void open() {
        direct = CassandraFixtures.directSession();
        CassandraFixtures.createKeyspace(direct, "fidelity", 1);
        direct.execute("CREATE TYPE IF NOT EXISTS fidelity.address (street text, number int, photo blob)");
        direct.execute(
                "CREATE TABLE IF NOT EXISTS fidelity.everything (k blob, at timestamp, d decimal, vi varint, f float,"
                        + " db double, not_a_number double, du duration, ip inet, tu timeuuid, u uuid, day date,"
                        + " tm time, bo boolean, sm smallint, ti tinyint, tup frozen<tuple<int, text>>,"
                        + " tags list<text>, nums set<int>, seen map<timestamp, blob>, frozen_map frozen<map<int,"
                        + " text>>, home frozen<address>, work address, vec vector<float, 3>, ascii_text ascii,"
                        + " readings list<double>, pair frozen<tuple<double, int>>, PRIMARY KEY ((k), at))");
        adapter = CassandraFixtures.openAdapter(Map.of());
        spec = CassandraFixtures.spec("fidelity", "everything", KeyColumns.of(List.of("k"), List.of("at")), "k");
        adapter.checkDataset(spec);
    }

    @AfterAll
    static void close() {
        adapter.close();
        direct.close();
    }

    @Test
    void everyTypeComesBackExactlyAsItWas() throws Exception {
        direct.execute(
                "INSERT INTO fidelity.everything (k, at, d, vi, f, db, not_a_number, du, ip, tu, u, day, tm, bo, sm,"
                        + " ti, tup, tags, nums, seen, frozen_map, home, work, vec, ascii_text, readings, pair)"
                        + " VALUES (0xcafe, '2024-02-29 12:34:56.789Z', 123456789012345678901234567890.123456789,"
                        + " 123456789012345678901234567890, 1.1, 0.1, NaN, 1h2m3s, '10.0.0.1',"
                        + " 50554d6e-29bb-11e5-b345-feff819cdc9f, 6ba7b810-9dad-11d1-80b4-00c04fd430c8, '2024-02-29',"
                        + " '12:34:56.123456789', true, 7, -3, (1, 'one'), ['a', 'b\"quoted'], {3, 1, 2},"
                        + " {'2024-01-01 00:00:00Z': 0x00ff}, {1: 'x'}, {street: 'Main', number: 1, photo: 0xbeef},"
                        + " {street: 'Side', number: 2, photo: null}, [1.5, -2.25, 3.0], 'plain', [1.5, NaN,"
                        + " -Infinity], (Infinity, 1)) USING TIMESTAMP " + BEFORE);
        Row before = direct.execute("SELECT * FROM fidelity.everything").one();
        Map<String, Object> key = Map.of("k", "yv4=", "at", "2024-02-29T12:34:56.789Z");

        List<LiveRow> rows = adapter.readRows(spec, List.of(key));
        assertThat(rows).hasSize(1);
        assertThat(valueOf(rows.get(0), "k")).isEqualTo("yv4=");
        assertThat(valueOf(rows.get(0), "at")).isEqualTo("2024-02-29T12:34:56.789Z");
        assertThat(valueOf(rows.get(0), "not_a_number")).isEqualTo("NaN");
        assertThat(valueOf(rows.get(0), "readings")).isEqualTo(List.of(new BigDecimal("1.5"), "NaN", "-Infinity"));
        assertThat(rows.get(0).lastWriteMicros()).isEqualTo(BEFORE);

        DeletionTask task = DeletionTask.forRun(RunId.of("run-fidelity"), spec, List.of(key), CUTOFF);
        DeletionRecord record =
                DeletionRecord.of(task, "batch-1", key, rows.get(0).columns(), Instant.now());
        DeletionRecord fromLog = KAFKA_LIKE.readValue(KAFKA_LIKE.writeValueAsString(record), DeletionRecord.class);
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "batch-1", CUTOFF, List.of(key))));
        assertThat(direct.execute("SELECT * FROM fidelity.everything").one()).isNull();

        assertThat(adapter.restore(spec, List.of(fromLog)).count(Status.RESTORED))
                .isEqualTo(1);
        Row after = direct.execute("SELECT * FROM fidelity.everything").one();
        assertThat(after).isNotNull();
        assertThat(values(after)).isEqualTo(values(before));
    }

    private static Object valueOf(LiveRow row, String column) {
        return row.columns().stream()
                .filter(c -> c.name().equals(column))
                .findFirst()
                .map(ColumnValue::value)
                .orElseThrow();
    }

    /** Each column as a CQL literal, formatted by the driver's own codec: blobs, UDTs and tuples by content. */
    private static Map<String, String> values(Row row) {
        Map<String, String> values = new LinkedHashMap<>();
        for (ColumnDefinition column : row.getColumnDefinitions()) {
            values.put(
                    column.getName().asInternal(),
                    row.codecRegistry().codecFor(column.getType()).format(row.getObject(column.getName())));
        }
        return values;
    }
}
