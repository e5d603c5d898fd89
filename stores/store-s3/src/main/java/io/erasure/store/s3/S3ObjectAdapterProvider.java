package io.erasure.store.s3;

import io.erasure.store.s3.client.S3ClientFactory;
import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapterProvider;
import io.erasure.store.spi.StoreConnection;
import java.time.Clock;

/**
 * Opens {@link S3ObjectAdapter}s (type {@code S3_OBJECT}). Settings: see {@link S3Settings} ({@code endpoint},
 * {@code region}, {@code bucket}, {@code access-key}, {@code secret-key}, {@code path-style}, {@code retained-bucket},
 * {@code retained-prefix}, {@code inline-max-bytes}, {@code max-objects-per-key}, {@code key-prefixes},
 * {@code conditional-requests}, {@code allow-versioned-bucket}, {@code call-timeout-ms}).
 */
public final class S3ObjectAdapterProvider implements StoreAdapterProvider {

    @Override
    public String type() {
        return "S3_OBJECT";
    }

    @Override
    public SettingsSpec settings() {
        return S3Settings.SPEC;
    }

    @Override
    public StoreAdapter open(StoreConnection connection) {
        S3Settings settings = S3Settings.from(connection);
        return new S3ObjectAdapter(S3ClientFactory.create(settings), settings, Clock.systemUTC());
    }
}
