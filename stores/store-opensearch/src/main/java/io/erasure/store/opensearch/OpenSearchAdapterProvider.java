package io.erasure.store.opensearch;

import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapterProvider;
import io.erasure.store.spi.StoreConnection;
import java.time.Clock;

/**
 * Opens {@link OpenSearchAdapter}s (type {@code OPENSEARCH}) over the cluster's REST API; settings: see
 * {@link OpenSearchSettings}. Opening sends nothing: an unreachable cluster fails the first call, which is retried.
 */
public final class OpenSearchAdapterProvider implements StoreAdapterProvider {

    @Override
    public String type() {
        return "OPENSEARCH";
    }

    @Override
    public SettingsSpec settings() {
        return OpenSearchSettings.SPEC;
    }

    @Override
    public StoreAdapter open(StoreConnection connection) {
        OpenSearchSettings settings = OpenSearchSettings.from(connection);
        RestCalls rest = new RestCalls(settings);
        return new OpenSearchAdapter(settings, rest, new ClusterLoad(rest, settings, Clock.systemUTC()));
    }
}
