package io.erasure.infra;

/**
 * The engines of one JVM: each is started at most once, on first use, on random free ports in a
 * temporary folder, and stopped (folder removed) when the JVM exits.
 *
 * <p>Use from plain tests (or through {@link LocalEnginesExtension}), and from Spring tests with
 * {@code @DynamicPropertySource}:
 * {@code LocalEngines.kafka().springProperties().forEach((name, value) -> registry.add(name, () -> value))}.
 */
public final class LocalEngines {

    private LocalEngines() {}

    public static CassandraEngine cassandra() {
        return SharedEngines.INSTANCE.get(CassandraEngine.class, CassandraEngine::startForTests);
    }

    public static KafkaEngine kafka() {
        return SharedEngines.INSTANCE.get(KafkaEngine.class, KafkaEngine::startForTests);
    }

    public static OpenSearchEngine openSearch() {
        return SharedEngines.INSTANCE.get(OpenSearchEngine.class, OpenSearchEngine::startForTests);
    }

    public static PostgresEngine postgres() {
        return SharedEngines.INSTANCE.get(PostgresEngine.class, PostgresEngine::startForTests);
    }

    public static RedisEngine redis() {
        return SharedEngines.INSTANCE.get(RedisEngine.class, RedisEngine::startForTests);
    }

    public static S3Engine s3() {
        return SharedEngines.INSTANCE.get(S3Engine.class, S3Engine::startForTests);
    }
}
