package io.erasure.store.redis;

import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapterProvider;
import io.erasure.store.spi.StoreConnection;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Clock;
import java.time.Duration;

/**
 * Opens {@link RedisAdapter}s (type {@code REDIS}) on one Lettuce connection each; settings: see {@link RedisSettings}.
 * The connection reconnects by itself; while it is down, commands fail at once (and are retried by the caller)
 * rather than queue up. Keys are UTF-8 strings, values raw bytes ({@code DUMP} payloads).
 */
public final class RedisAdapterProvider implements StoreAdapterProvider {

    @Override
    public String type() {
        return "REDIS";
    }

    @Override
    public SettingsSpec settings() {
        return RedisSettings.SPEC;
    }

    @Override
    public StoreAdapter open(StoreConnection connection) {
        RedisSettings settings = RedisSettings.from(connection);
        RedisClient client = RedisClient.create(settings.uri());
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder()
                        .connectTimeout(settings.timeout())
                        .keepAlive(true)
                        .build())
                .timeoutOptions(TimeoutOptions.enabled(settings.timeout()))
                .build());
        StatefulRedisConnection<String, byte[]> redis;
        try {
            redis = client.connect(Pipeline.CODEC);
        } catch (RuntimeException e) {
            shutdown(client);
            // wrong credentials are Fatal (the reply says WRONGPASS or NOAUTH), a server not reachable is Retriable
            throw RedisFailures.translate(
                    "connect to Redis for connection '" + settings.ref() + "' (" + settings.address() + ")", e);
        }
        Pipeline pipeline = new Pipeline(redis, settings.timeout());
        return new RedisAdapter(
                settings,
                pipeline,
                () -> {
                    redis.close();
                    shutdown(client);
                },
                Clock.systemUTC());
    }

    private static void shutdown(RedisClient client) {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
