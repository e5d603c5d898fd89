package io.erasure.store.redis.read;

import io.erasure.model.record.ColumnValue;
import io.erasure.store.redis.Pipeline;
import io.erasure.store.redis.keys.DatasetKeys;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.lettuce.core.RedisFuture;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Point reads of a dataset's keys, every key of a call in one pipeline.
 *
 * <p>A row is the key's whole value as {@code DUMP} serializes it: binary-exact and the same for every Redis type
 * (string, hash, list, set, sorted set, stream), so a restore puts back exactly what was there. Its columns:
 * <ul>
 *   <li>{@value #VALUE}: the {@code DUMP} payload, base64, with the key's remaining TTL ({@code PTTL} rounded up to
 *       whole seconds; null without one);</li>
 *   <li>{@value #TYPE}: the Redis type name, so that the log reads as more than a blob.</li>
 * </ul>
 * Redis keeps no write times, so {@code lastWriteMicros} is always null.
 */
public final class ValueReader {

    public static final String VALUE = "value";
    public static final String TYPE = "type";

    private static final long NO_KEY = -2;
    private static final long NO_TTL = -1;

    private final Pipeline pipeline;

    public ValueReader(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    /** The rows of the keys that exist; the others are left out. */
    public List<LiveRow> readRows(DatasetKeys dataset, List<Map<String, Object>> keys) {
        List<String> redisKeys = dataset.keysOf(keys);
        List<RedisFuture<byte[]>> dumps = new ArrayList<>(keys.size());
        List<RedisFuture<Long>> ttls = new ArrayList<>(keys.size());
        List<RedisFuture<String>> types = new ArrayList<>(keys.size());
        Pipeline.Batch batch = pipeline.batch();
        for (String key : redisKeys) {
            dumps.add(batch.dump(key));
            ttls.add(batch.pttl(key));
            types.add(batch.type(key));
        }
        batch.send();
        String action =
                "read " + keys.size() + " keys of dataset '" + dataset.spec().name() + "'";
        List<byte[]> values = pipeline.values(action, dumps);
        List<Long> pttls = pipeline.values(action, ttls);
        List<String> typeNames = pipeline.values(action, types);

        List<LiveRow> rows = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            // other clients' commands may run between DUMP and PTTL: a key that expired in between is gone
            if (values.get(i) == null || pttls.get(i) == NO_KEY) {
                continue;
            }
            rows.add(new LiveRow(
                    keys.get(i),
                    List.of(
                            new ColumnValue(
                                    VALUE,
                                    Base64.getEncoder().encodeToString(values.get(i)),
                                    null,
                                    ttlSeconds(pttls.get(i))),
                            ColumnValue.of(TYPE, typeNames.get(i))),
                    null));
        }
        return rows;
    }

    /** Whether each key exists now, in order. */
    public List<LiveState> checkLiveState(DatasetKeys dataset, List<Map<String, Object>> keys) {
        List<Boolean> present = exist(dataset, keys);
        List<LiveState> states = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            states.add(new LiveState(keys.get(i), present.get(i), null));
        }
        return states;
    }

    /** {@code EXISTS} of each key (not one multi-key EXISTS, whose count could not tell which keys exist). */
    public List<Boolean> exist(DatasetKeys dataset, List<Map<String, Object>> keys) {
        List<RedisFuture<Long>> exists = new ArrayList<>(keys.size());
        Pipeline.Batch batch = pipeline.batch();
        for (String key : dataset.keysOf(keys)) {
            exists.add(batch.exists(key));
        }
        batch.send();
        return pipeline
                .values(
                        "check " + keys.size() + " keys of dataset '"
                                + dataset.spec().name() + "'",
                        exists)
                .stream()
                .map(count -> count > 0)
                .toList();
    }

    /** Remaining TTL in whole seconds, rounded up so that a key about to expire still has one; null without a TTL. */
    static Integer ttlSeconds(long pttlMillis) {
        if (pttlMillis == NO_TTL) {
            return null;
        }
        long seconds = Math.max(1, (pttlMillis + 999) / 1000);
        return (int) Math.min(Integer.MAX_VALUE, seconds);
    }
}
