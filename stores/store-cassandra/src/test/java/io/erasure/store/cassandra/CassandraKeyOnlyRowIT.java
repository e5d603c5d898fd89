package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.DeletePlan.KeyDecision;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Rows that hold only their key columns: no cell to time, yet they are read, deleted and restored. */
class CassandraKeyOnlyRowIT {

    private static final long BEFORE = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(BEFORE + 1_000_000);
    private static final long AFTER = CUTOFF.micros() + 1_000;

    private static CqlSession direct;
    private static CassandraStoreAdapter adapter;
    private static DatasetSpec spec;

    @BeforeAll
    static void open() {
        direct = CassandraFixtures.directSession();
        CassandraFixtures.createKeyspace(direct, "keyonly", 1);
        direct.execute("CREATE TABLE keyonly.follows (user_id bigint, follows_id bigint, note text,"
                + " PRIMARY KEY ((user_id), follows_id))");
        adapter = CassandraFixtures.openAdapter(Map.of());
        spec = CassandraFixtures.spec(
                "keyonly", "follows", KeyColumns.of(List.of("user_id"), List.of("follows_id")), "follows_id");
        adapter.checkDataset(spec);
    }

    @AfterAll
    static void close() {
        adapter.close();
        direct.close();
    }

    @Test
    void aKeyOnlyRowIsPresentWithAnUnknownWriteTimeAndIsDeletedAndRestored() {
        insertKeyOnly(1, 2, BEFORE);
        List<Map<String, Object>> keys = List.of(follow(1, 2));

        List<LiveRow> rows = adapter.readRows(spec, keys);
        List<LiveState> states = adapter.checkLiveState(spec, keys);
        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.lastWriteMicros()).isNull();
            assertThat(row.columns()).extracting(ColumnValue::name).containsExactly("user_id", "follows_id", "note");
            assertThat(row.columns()).extracting(ColumnValue::value).containsExactly(1, 2, null);
        });
        assertThat(states).singleElement().satisfies(state -> {
            assertThat(state.present()).isTrue();
            assertThat(state.lastWriteMicros()).isNull();
        });

        DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "batch-1", CUTOFF, keys));
        adapter.executeDelete(plan);
        assertThat(plan.decisions()).extracting(KeyDecision::action).containsExactly(Action.DELETE_ROW);
        assertThat(read(1, 2)).isNull();

        DeletionTask task = DeletionTask.forRun(RunId.of("run-keyonly"), spec, keys, CUTOFF);
        DeletionRecord record = DeletionRecord.of(
                task, "batch-1", rows.get(0).key(), rows.get(0).columns(), Instant.now());
        assertThat(adapter.restore(spec, List.of(record)).count(Status.RESTORED))
                .isEqualTo(1);
        assertThat(read(1, 2)).isNotNull();
    }

    @Test
    void aKeyOnlyRowRecreatedAfterTheCutoffSurvivesTheDeleteThroughItsNewerRowMarker() {
        insertKeyOnly(3, 4, AFTER);
        List<Map<String, Object>> keys = List.of(follow(3, 4));

        DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "batch-1", CUTOFF, keys));
        adapter.executeDelete(plan);

        // the planner cannot tell it is newer, but the delete at the cut-off cannot remove it
        assertThat(plan.decisions()).extracting(KeyDecision::action).containsExactly(Action.DELETE_ROW);
        assertThat(read(3, 4)).isNotNull();
    }

    private static Map<String, Object> follow(long user, long follows) {
        return Map.of("user_id", user, "follows_id", follows);
    }

    private static void insertKeyOnly(long user, long follows, long writeTime) {
        direct.execute(
                direct.prepare("INSERT INTO keyonly.follows (user_id, follows_id) VALUES (?, ?) USING TIMESTAMP ?")
                        .bind(user, follows, writeTime));
    }

    private static Row read(long user, long follows) {
        return direct.execute(direct.prepare("SELECT * FROM keyonly.follows WHERE user_id = ? AND follows_id = ?")
                        .bind(user, follows))
                .one();
    }
}
