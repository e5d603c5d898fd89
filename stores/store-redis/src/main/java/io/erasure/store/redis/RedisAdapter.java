package io.erasure.store.redis;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.redis.keys.DatasetKeys;
import io.erasure.store.redis.load.RedisLoad;
import io.erasure.store.redis.plan.DeleteExecutor;
import io.erasure.store.redis.plan.DeletePlanner;
import io.erasure.store.redis.read.ValueReader;
import io.erasure.store.redis.restore.ValueRestorer;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreCapabilities;
import io.erasure.store.spi.StoreCapabilities.Capability;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Redis store adapter: the cache tier, where a dataset is a copy of a source dataset
 * ({@link io.erasure.model.dataset.DatasetCopy#viewOf}) and a row is one Redis key rendered from the copy's key
 * template, e.g. {@code profile:{customer_id}}.
 *
 * <h2>What Redis cannot promise</h2>
 * Redis keeps no write times, so deletes are not conditioned on the cut-off
 * ({@link StoreCapabilities#cutoffConditioned()} is false): a key written again after the cut-off, even between
 * plan and execute, is deleted. Redis therefore serves only as a copy, deleted after its source row, when the
 * application can no longer refill it from the source.
 *
 * <h2>Reads, deletes, restores</h2>
 * Values are read whole with {@code DUMP} and {@code PTTL} ({@link ValueReader}), deleted with {@code UNLINK} in
 * chunks of {@code pipeline-size} keys ({@link DeletePlanner}, {@link DeleteExecutor}), and put back with
 * {@code RESTORE} without {@code REPLACE} ({@link ValueRestorer}), so a key that exists again is never overwritten.
 * Only point keys are used: never {@code SCAN}, {@code KEYS} or a pattern.
 *
 * <h2>Connections</h2>
 * One Lettuce connection, shared by every caller: commands of concurrent calls are multiplexed on it, and each call
 * sends all its commands before awaiting their replies. See {@link RedisSettings} for the settings and
 * {@link RedisFailures} for which errors are retriable.
 */
public final class RedisAdapter implements StoreAdapter {

    /** Keys per call. */
    public static final int MAX_BATCH = 1_000;

    private static final StoreCapabilities CAPABILITIES =
            StoreCapabilities.of(MAX_BATCH, Capability.CELL_TTL, Capability.RESTORE);

    private final RedisSettings settings;
    private final Pipeline pipeline;
    private final AutoCloseable connection;
    private final ValueReader reader;
    private final DeletePlanner planner;
    private final DeleteExecutor executor;
    private final ValueRestorer restorer;
    private final RedisLoad load;
    private final Map<DatasetSpec, DatasetKeys> datasets = new ConcurrentHashMap<>();

    /** An adapter on an open connection, which it closes with {@link #close()}. */
    public RedisAdapter(RedisSettings settings, Pipeline pipeline, AutoCloseable connection, Clock clock) {
        this.settings = settings;
        this.pipeline = pipeline;
        this.connection = connection;
        this.reader = new ValueReader(pipeline);
        this.planner = new DeletePlanner(reader, settings.pipelineSize());
        this.executor = new DeleteExecutor(pipeline, settings.pipelineSize());
        this.restorer = new ValueRestorer(pipeline, clock);
        this.load = new RedisLoad(pipeline, settings.opsLimit(), settings.latencyLimitMs(), clock, System::nanoTime);
    }

    @Override
    public StoreCapabilities capabilities() {
        return CAPABILITIES;
    }

    /**
     * Checks that the spec is a REDIS dataset with a point-key template made of its key columns, inside the
     * connection's {@code key-prefixes} if set ({@link DatasetKeys#check}), and that the server answers. Redis has no
     * schema: a template naming keys that do not exist is not an error, they are simply absent.
     */
    @Override
    public void checkDataset(DatasetSpec spec) {
        datasets.put(spec, check(spec));
    }

    @Override
    public List<LiveRow> readRows(DatasetSpec spec, List<Map<String, Object>> keys) {
        return reader.readRows(keysOf(spec, keys), keys);
    }

    @Override
    public List<LiveState> checkLiveState(DatasetSpec spec, List<Map<String, Object>> keys) {
        return reader.checkLiveState(keysOf(spec, keys), keys);
    }

    @Override
    public DeletePlan planDelete(DeleteBatch batch) {
        return planner.plan(keysOf(batch.spec(), batch.keys()), batch);
    }

    @Override
    public DeleteOutcome executeDelete(DeletePlan plan) {
        return executor.execute(keysOf(plan.batch().spec(), plan.batch().keys()), plan);
    }

    @Override
    public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
        if (records.size() > MAX_BATCH) {
            throw new IllegalArgumentException(
                    "restore takes at most " + MAX_BATCH + " records per call, got " + records.size());
        }
        return restorer.restore(keysOf(spec, List.of()), records);
    }

    @Override
    public LoadSignal loadSignal() {
        return load.measure();
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing the Redis connection '" + settings.ref() + "' failed", e);
        }
    }

    private DatasetKeys keysOf(DatasetSpec spec, List<Map<String, Object>> keys) {
        if (keys.size() > MAX_BATCH) {
            throw new IllegalArgumentException("at most " + MAX_BATCH + " keys per call, got " + keys.size());
        }
        for (int i = 0; i < keys.size(); i++) {
            spec.keyColumns().requireFullKey("keys[" + i + "]", keys.get(i));
        }
        // a spec checked by another replica is checked here on first use
        return datasets.computeIfAbsent(spec, this::check);
    }

    private DatasetKeys check(DatasetSpec spec) {
        DatasetKeys keys = DatasetKeys.check(spec, settings.keyPrefixes(), settings.ref());
        pipeline.value(
                "check dataset '" + spec.name() + "' on " + settings.address(),
                pipeline.send().ping());
        return keys;
    }
}
