package io.erasure.store.redis;

import static io.erasure.store.redis.TestRedis.CUTOFF;
import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import io.erasure.store.spi.StoreAdapter;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Values of every Redis type through read, delete and restore; keys that are missing or written again. */
class RedisValuesIT {

    private static final int DATABASE = 2;
    private static final DatasetSpec SPEC = TestRedis.spec("profiles", "profile:{name}", "name");
    private static StoreAdapter adapter;

    private final RedisCommands<String, String> redis = TestRedis.redis(DATABASE);
    private final RedisCommands<String, byte[]> binary = TestRedis.binary(DATABASE);

    @BeforeAll
    static void open() {
        adapter = TestRedis.open(DATABASE, Map.of());
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
    void everyTypeSurvivesReadDeleteRestoreByteForByte() {
        redis.set("profile:string", "Ada Lovelace \u00e9\u00e8");
        redis.hset("profile:hash", Map.of("email", "ada@example.com", "plan", "pro"));
        redis.rpush("profile:list", "login", "logout", "login");
        redis.sadd("profile:set", "red", "green", "blue");
        redis.zadd("profile:zset", 1.5, "a", 2.5, "b", -3.0, "c");
        redis.xadd("profile:stream", Map.of("event", "signup"));
        for (String key : List.of("profile:hash", "profile:set", "profile:stream")) {
            redis.expire(key, 600);
        }
        List<String> names = List.of("string", "hash", "list", "set", "zset", "stream");
        Map<String, byte[]> before = new LinkedHashMap<>();
        names.forEach(name -> before.put(name, binary.dump("profile:" + name)));

        List<LiveRow> rows = adapter.readRows(SPEC, keys(names));
        assertThat(rows)
                .extracting(row -> row.columns().get(1).value())
                .containsExactly("string", "hash", "list", "set", "zset", "stream");
        assertThat(rows)
                .extracting(row -> row.columns().get(0).ttlSeconds())
                .containsExactly(null, 600, null, 600, null, 600);
        assertThat(rows).allSatisfy(row -> assertThat(row.lastWriteMicros()).isNull());
        // what is logged is the DUMP payload itself, binary-exact
        for (int i = 0; i < names.size(); i++) {
            assertThat(Base64.getDecoder()
                            .decode((String) rows.get(i).columns().get(0).value()))
                    .as(names.get(i))
                    .isEqualTo(before.get(names.get(i)));
        }
        List<DeletionRecord> records = TestRedis.recordsOf(SPEC, rows, Instant.now());

        DeleteOutcome deleted = delete(keys(names));
        assertThat(deleted.deleted()).isEqualTo(6);
        assertThat(redis.exists(names.stream().map(n -> "profile:" + n).toArray(String[]::new)))
                .isZero();

        RestoreOutcome restored = adapter.restore(SPEC, records);

        assertThat(restored.count(Status.RESTORED)).isEqualTo(6);
        // a set stored as a hash table may dump its members in another order once restored: compare its members
        names.stream()
                .filter(name -> !name.equals("set"))
                .forEach(name ->
                        assertThat(binary.dump("profile:" + name)).as(name).isEqualTo(before.get(name)));
        assertThat(redis.smembers("profile:set")).containsExactlyInAnyOrder("red", "green", "blue");
        assertThat(redis.get("profile:string")).isEqualTo("Ada Lovelace \u00e9\u00e8");
        assertThat(redis.lrange("profile:list", 0, -1)).containsExactly("login", "logout", "login");
        assertThat(redis.zrange("profile:zset", 0, -1)).containsExactly("c", "a", "b");
        for (String name : List.of("hash", "set", "stream")) {
            assertThat(redis.pttl("profile:" + name)).as(name).isBetween(590_000L, 600_000L);
        }
        for (String name : List.of("string", "list", "zset")) {
            assertThat(redis.pttl("profile:" + name)).as(name).isEqualTo(-1L);
        }
    }

    @Test
    void aRestoreGivesBackOnlyTheTtlThatWasLeft() {
        redis.set("profile:short", "s");
        redis.expire("profile:short", 3_600);
        redis.set("profile:gone", "g");
        redis.expire("profile:gone", 60);
        List<LiveRow> rows = adapter.readRows(SPEC, keys(List.of("short", "gone")));
        delete(keys(List.of("short", "gone")));
        // deleted 20 minutes ago: 40 minutes were left of the hour, and the minute ran out long ago
        List<DeletionRecord> records =
                TestRedis.recordsOf(SPEC, rows, Instant.now().minus(Duration.ofMinutes(20)));

        RestoreOutcome restored = adapter.restore(SPEC, records);

        assertThat(restored.records())
                .extracting(RecordOutcome::status)
                .containsExactly(Status.RESTORED, Status.EXPIRED);
        assertThat(redis.pttl("profile:short")).isBetween(2_390_000L, 2_400_000L);
        assertThat(redis.exists("profile:gone")).isZero();
    }

    @Test
    void aKeyWrittenAgainAfterTheDeleteIsNeverOverwritten() {
        redis.hset("profile:ada", Map.of("plan", "free"));
        redis.hset("profile:bob", Map.of("plan", "free"));
        List<DeletionRecord> records =
                TestRedis.recordsOf(SPEC, adapter.readRows(SPEC, keys(List.of("ada", "bob"))), Instant.now());
        delete(keys(List.of("ada", "bob")));
        redis.hset("profile:bob", Map.of("plan", "pro", "since", "today"));

        RestoreOutcome restored = adapter.restore(SPEC, records);

        assertThat(restored.records())
                .extracting(RecordOutcome::status)
                .containsExactly(Status.RESTORED, Status.NEWER_DATA_KEPT);
        assertThat(restored.records().get(1).detail()).contains("exists again");
        assertThat(redis.hgetall("profile:ada")).isEqualTo(Map.of("plan", "free"));
        assertThat(redis.hgetall("profile:bob")).isEqualTo(Map.of("plan", "pro", "since", "today"));

        RestoreOutcome again = adapter.restore(SPEC, records);

        assertThat(again.records())
                .extracting(RecordOutcome::status)
                .containsExactly(Status.NEWER_DATA_KEPT, Status.NEWER_DATA_KEPT);
        assertThat(again.records().get(0).detail()).isEqualTo("already restored");
        assertThat(redis.hgetall("profile:bob")).isEqualTo(Map.of("plan", "pro", "since", "today"));
    }

    @Test
    void aMissingKeyIsAbsent() {
        redis.set("profile:here", "1");
        List<Map<String, Object>> keys = keys(List.of("here", "missing"));

        DeletePlan plan = adapter.planDelete(new DeleteBatch(SPEC, "b-missing", CUTOFF, keys));

        assertThat(plan.decisions())
                .extracting(DeletePlan.KeyDecision::action)
                .containsExactly(DeletePlan.Action.DELETE_ROW, DeletePlan.Action.ABSENT);
        assertThat(plan.statements()).singleElement().satisfies(statement -> {
            assertThat(statement.text()).isEqualTo("UNLINK ?");
            assertThat(statement.values()).containsExactly("profile:here");
        });
        assertThat(adapter.readRows(SPEC, keys)).extracting(LiveRow::key).containsExactly(Map.of("name", "here"));
        assertThat(adapter.checkLiveState(SPEC, keys))
                .extracting(LiveState::present)
                .containsExactly(true, false);

        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.absent()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isZero();
        assertThat(adapter.checkLiveState(SPEC, keys))
                .extracting(LiveState::present)
                .containsExactly(false, false);
    }

    @Test
    void keysWithGlobCharactersArePointKeys() {
        for (String key : List.of("profile:a*", "profile:ab", "profile:a?", "profile:[ab]", "profile:a", "profile:b")) {
            redis.set(key, key);
        }

        DeleteOutcome outcome = delete(keys(List.of("a*", "a?", "[ab]")));

        assertThat(outcome.deleted()).isEqualTo(3);
        assertThat(redis.keys("*")).containsExactlyInAnyOrder("profile:ab", "profile:a", "profile:b");
    }

    private static DeleteOutcome delete(List<Map<String, Object>> keys) {
        return adapter.executeDelete(adapter.planDelete(new DeleteBatch(SPEC, "b-values", CUTOFF, keys)));
    }

    private static List<Map<String, Object>> keys(List<String> names) {
        return names.stream()
                .<Map<String, Object>>map(name -> Map.of("name", name))
                .toList();
    }
}
