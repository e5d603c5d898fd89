package io.erasure.store.redis;

import static io.erasure.store.redis.TestRedis.CUTOFF;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.PlannedStatement;
import io.erasure.store.spi.StoreAdapter;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Many keys deleted in UNLINK chunks of {@code pipeline-size}, with exact counts; plans that are not the adapter's. */
class PipelinedDeleteIT {

    private static final int DATABASE = 3;
    private static final int KEYS = 5_000;
    private static final DatasetSpec SPEC =
            TestRedis.spec("sessions", "session:{user_id}:{device}", "user_id", "device");
    private static StoreAdapter adapter;

    private final RedisCommands<String, String> redis = TestRedis.redis(DATABASE);

    @BeforeAll
    static void open() {
        adapter = TestRedis.open(DATABASE, Map.of("pipeline-size", "300"));
        adapter.checkDataset(SPEC);
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @BeforeEach
    void empty() {
        redis.flushdb();
    }

    @Test
    void fiveThousandKeysAreDeletedInChunksWithExactCounts() {
        // every tenth key was never cached; an unrelated key shares the prefix
        Map<String, String> values = new HashMap<>();
        for (int id = 1; id <= KEYS; id++) {
            if (id % 10 != 0) {
                values.put("session:" + id + ":web", "token-" + id);
            }
        }
        redis.mset(values);
        redis.set("session:1:mobile", "kept");

        int deleted = 0;
        int absent = 0;
        int statements = 0;
        for (int from = 1; from <= KEYS; from += adapter.capabilities().maxBatch()) {
            List<Map<String, Object>> keys = new ArrayList<>();
            for (int id = from; id < from + adapter.capabilities().maxBatch(); id++) {
                keys.add(Map.of("user_id", id, "device", "web"));
            }
            DeletePlan plan = adapter.planDelete(new DeleteBatch(SPEC, "b-" + from, CUTOFF, keys));
            assertThat(plan.count(DeletePlan.Action.DELETE_ROW)).isEqualTo(900);
            assertThat(plan.statements()).extracting(s -> s.values().size()).containsExactly(300, 300, 300);

            DeleteOutcome outcome = adapter.executeDelete(plan);

            assertThat(outcome.deleted()).isEqualTo(900);
            assertThat(outcome.absent()).isEqualTo(100);
            assertThat(outcome.statements()).isEqualTo(3);
            deleted += outcome.deleted();
            absent += outcome.absent();
            statements += outcome.statements();
        }

        assertThat(deleted).isEqualTo(4_500);
        assertThat(absent).isEqualTo(500);
        assertThat(statements).isEqualTo(15);
        assertThat(redis.dbsize()).isEqualTo(1);
        assertThat(redis.get("session:1:mobile")).isEqualTo("kept");
    }

    @Test
    void keysGoneBetweenPlanAndExecuteCountAsAbsent() {
        redis.mset(Map.of("session:1:web", "a", "session:2:web", "b", "session:3:web", "c"));
        List<Map<String, Object>> keys = List.of(
                Map.of("user_id", 1, "device", "web"),
                Map.of("user_id", 2, "device", "web"),
                Map.of("user_id", 3, "device", "web"));
        DeletePlan plan = adapter.planDelete(new DeleteBatch(SPEC, "b-gone", CUTOFF, keys));
        redis.del("session:2:web"); // expired or evicted meanwhile

        DeleteOutcome outcome = adapter.executeDelete(plan);
        DeleteOutcome again = adapter.executeDelete(plan);

        assertThat(outcome.deleted()).isEqualTo(2);
        assertThat(outcome.absent()).isEqualTo(1);
        assertThat(again.deleted()).isZero();
        assertThat(again.absent()).isEqualTo(3);
    }

    @Test
    void aPlanThisAdapterDidNotMakeIsRefused() {
        redis.mset(Map.of("session:1:web", "a", "session:2:web", "b"));
        DeletePlan plan = adapter.planDelete(
                new DeleteBatch(SPEC, "b-forged", CUTOFF, List.of(Map.of("user_id", 1, "device", "web"))));
        DeletePlan widened = new DeletePlan(
                plan.batch(),
                List.of(new PlannedStatement("UNLINK ? ?", List.of("session:1:web", "session:2:web"))),
                plan.decisions());
        DeletePlan otherCommand =
                new DeletePlan(plan.batch(), List.of(new PlannedStatement("FLUSHDB", List.of())), plan.decisions());

        for (DeletePlan forged : List.of(widened, otherCommand)) {
            assertThatThrownBy(() -> adapter.executeDelete(forged))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("did not make");
        }
        assertThat(redis.dbsize()).isEqualTo(2);
    }
}
