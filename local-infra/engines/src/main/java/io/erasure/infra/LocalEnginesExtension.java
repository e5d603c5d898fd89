package io.erasure.infra;

import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands tests the shared engines of this JVM as parameters:
 * <pre>
 * &#64;ExtendWith(LocalEnginesExtension.class)
 * class SomethingIT {
 *     &#64;Test void works(CassandraEngine cassandra, KafkaEngine kafka) { ... }
 * }
 * </pre>
 * Each engine is started at most once per JVM (on first use) and shared by every test class.
 */
public final class LocalEnginesExtension implements ParameterResolver {

    private static final Map<Class<?>, Supplier<? extends Engine>> ENGINES = Map.of(
            CassandraEngine.class, LocalEngines::cassandra,
            KafkaEngine.class, LocalEngines::kafka,
            OpenSearchEngine.class, LocalEngines::openSearch,
            PostgresEngine.class, LocalEngines::postgres,
            RedisEngine.class, LocalEngines::redis,
            S3Engine.class, LocalEngines::s3);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return ENGINES.containsKey(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Supplier<? extends Engine> engine = ENGINES.get(parameter.getParameter().getType());
        if (engine == null) {
            throw new ParameterResolutionException(
                    "not an engine: " + parameter.getParameter().getType());
        }
        return engine.get();
    }
}
