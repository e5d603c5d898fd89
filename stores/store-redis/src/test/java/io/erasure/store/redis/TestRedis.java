package io.erasure.store.redis;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.RedisEngine;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared Redis of the test JVM, adapters opened on it through the ServiceLoader, and direct commands. Each test
 * class works in its own logical database, so classes sharing the JVM never see each other's keys.
 */
public final class TestRedis {

    public static final CutoffTimestamp CUTOFF =
            CutoffTimestamp.fromInstant(Instant.now().minusSeconds(3_600));

    private static final Map<Integer, StatefulRedisConnection<String, String>> TEXT = new HashMap<>();
    private static final Map<Integer, StatefulRedisConnection<String, byte[]>> BINARY = new HashMap<>();
    private static RedisClient client;

    private TestRedis() {}

    public static RedisEngine engine() {
        return LocalEngines.redis();
    }

    public static StoreConnection connection(int database, Map<String, String> extraSettings) {
        RedisEngine redis = engine();
        Map<String, String> settings = new HashMap<>(Map.of(
                "host", redis.host(), "port", Integer.toString(redis.port()), "database", Integer.toString(database)));
        settings.putAll(extraSettings);
        return new StoreConnection("redis-test", StoreKind.REDIS, settings);
    }

    /** An adapter found the way services find it: by type, through META-INF/services. */
    public static StoreAdapter open(int database, Map<String, String> extraSettings) {
        return StoreAdapters.load().open(connection(database, extraSettings));
    }

    /** Direct commands on {@code database}, values as UTF-8 strings. */
    public static synchronized RedisCommands<String, String> redis(int database) {
        return TEXT.computeIfAbsent(
                        database,
                        db -> client().connect(RedisURI.builder()
                                .withHost(engine().host())
                                .withPort(engine().port())
                                .withDatabase(db)
                                .build()))
                .sync();
    }

    /** Direct commands on {@code database}, values as raw bytes (DUMP payloads). */
    public static synchronized RedisCommands<String, byte[]> binary(int database) {
        return BINARY.computeIfAbsent(
                        database,
                        db -> client().connect(
                                        RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE),
                                        RedisURI.builder()
                                                .withHost(engine().host())
                                                .withPort(engine().port())
                                                .withDatabase(db)
                                                .build()))
                .sync();
    }

    /** A REDIS dataset whose rows are the keys {@code template} renders from {@code keyColumns}. */
    public static DatasetSpec spec(String name, String template, String... keyColumns) {
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.REDIS)
                .connectionRef("redis-test")
                .namespace("cache")
                .table(name.replace('-', '_'))
                .keyColumns(KeyColumns.of(List.of(keyColumns), List.of()))
                .identifierColumn(keyColumns[0])
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("storage")
                .target(new CopyTarget.KeyTemplate(template))
                .build();
    }

    /** Deletion records as the deletion service writes them, from rows read before the delete. */
    public static List<DeletionRecord> recordsOf(DatasetSpec spec, List<LiveRow> rows, Instant deletedAt) {
        DeletionTask task = DeletionTask.forRun(
                RunId.of("run-redis"), spec, rows.stream().map(LiveRow::key).toList(), CUTOFF);
        return rows.stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), deletedAt))
                .toList();
    }

    /** Closes the direct connections (the engine itself stops with the JVM). */
    public static synchronized void shutdown() {
        TEXT.clear();
        BINARY.clear();
        if (client != null) {
            client.shutdown();
            client = null;
        }
    }

    private static synchronized RedisClient client() {
        if (client == null) {
            client = RedisClient.create();
        }
        return client;
    }
}
