package io.erasure.store.redis;

import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.tck.ContractTable;
import io.erasure.store.tck.StoreAdapterContractTest;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The SPI contract against a real Redis. A contract row is a hash at {@code contract:<table>:<id>}; the adapter is
 * opened with {@code key-prefixes=contract:}, so a "missing table" is a template outside that namespace, which
 * {@code checkDataset} refuses naming it. Redis has no write times and no cut-off condition: the cut-off tests are
 * skipped by the contract itself.
 */
class RedisAdapterContractIT extends StoreAdapterContractTest {

    private static final int DATABASE = 1;
    private static final RedisContractTable TABLE = new RedisContractTable();
    private static StoreAdapter adapter;

    @BeforeAll
    static void open() {
        TestRedis.redis(DATABASE).flushdb();
        adapter = TestRedis.open(DATABASE, Map.of("key-prefixes", "contract:"));
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Override
    protected StoreAdapter adapter() {
        return adapter;
    }

    @Override
    protected ContractTable table() {
        return TABLE;
    }

    /** Rows as hashes with fields {@code payload} and {@code score}; write times kept aside, since Redis has none. */
    static final class RedisContractTable implements ContractTable {

        private final Map<String, Long> writeTimes = new ConcurrentHashMap<>();

        @Override
        public DatasetSpec create(String table) {
            return spec(table, "contract:" + table + ":{id}");
        }

        @Override
        public DatasetSpec missing(String table) {
            return spec(table, table + ":{id}");
        }

        @Override
        public void write(
                DatasetSpec spec, long id, String payload, int score, long writeTimeMicros, Integer ttlSeconds) {
            String key = key(spec, id);
            RedisCommands<String, String> redis = TestRedis.redis(DATABASE);
            redis.del(key);
            redis.hset(key, Map.of("payload", payload, "score", Integer.toString(score)));
            if (ttlSeconds != null) {
                redis.expire(key, ttlSeconds);
            }
            writeTimes.put(key, writeTimeMicros);
        }

        @Override
        public Optional<FixtureRow> read(DatasetSpec spec, long id) {
            String key = key(spec, id);
            RedisCommands<String, String> redis = TestRedis.redis(DATABASE);
            Map<String, String> fields = redis.hgetall(key);
            if (fields.isEmpty()) {
                return Optional.empty();
            }
            long ttl = redis.ttl(key);
            return Optional.of(new FixtureRow(
                    id,
                    fields.get("payload"),
                    Integer.parseInt(fields.get("score")),
                    writeTimes.getOrDefault(key, 0L),
                    ttl < 0 ? null : (int) ttl));
        }

        /**
         * Hashes like the contract rows' whose fields hold bytes of every value, UTF-8 text beyond ASCII and numbers as
         * text.
         */
        @Override
        public Optional<DatasetSpec> createForExtremeValues(String table) {
            return Optional.of(create(table));
        }

        @Override
        public void writeExtremeValues(DatasetSpec spec, long id, long writeTimeMicros) {
            String key = key(spec, id);
            RedisCommands<String, byte[]> binary = TestRedis.binary(DATABASE);
            byte[] everyByte = new byte[256];
            for (int i = 0; i < everyByte.length; i++) {
                everyByte[i] = (byte) (255 - i);
            }
            binary.del(key);
            binary.hset(
                    key,
                    Map.of(
                            "bytes",
                            everyByte,
                            "note",
                            "Zo\u00eb \u2211 \uD83D\uDE00 \"quoted\" \\ back\nslash".getBytes(StandardCharsets.UTF_8),
                            "amount",
                            "12345678901234567.891".getBytes(StandardCharsets.US_ASCII),
                            "smallest",
                            Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII),
                            "empty",
                            new byte[0]));
            writeTimes.put(key, writeTimeMicros);
        }

        /** Every field of the hash, its bytes as base64. */
        @Override
        public Optional<Map<String, String>> readExactly(DatasetSpec spec, long id) {
            Map<String, byte[]> fields = TestRedis.binary(DATABASE).hgetall(key(spec, id));
            if (fields.isEmpty()) {
                return Optional.empty();
            }
            Map<String, String> row = new LinkedHashMap<>();
            fields.forEach((field, bytes) -> row.put(field, Base64.getEncoder().encodeToString(bytes)));
            return Optional.of(row);
        }

        private static String key(DatasetSpec spec, long id) {
            return ((CopyTarget.KeyTemplate) spec.target()).render(Map.of("id", id));
        }

        private static DatasetSpec spec(String table, String template) {
            return TestRedis.spec(table.replace('_', '-'), template, "id");
        }
    }
}
