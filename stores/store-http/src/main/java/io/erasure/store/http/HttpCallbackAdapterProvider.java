package io.erasure.store.http;

import io.erasure.store.http.call.CallbackClient;
import io.erasure.store.http.request.SecretHeaders;
import io.erasure.store.http.target.HostResolver;
import io.erasure.store.http.target.TargetPolicy;
import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapterProvider;
import io.erasure.store.spi.StoreConnection;
import java.time.Clock;

/**
 * Opens {@link HttpCallbackAdapter}s (type {@code HTTP_CALLBACK}). Settings: see {@link HttpCallbackSettings}
 * ({@code allowed-hosts} required; {@code allowed-addresses}, {@code allow-private-addresses}, {@code timeout-ms},
 * {@code max-attempts}, {@code backoff-ms}, {@code max-batch}, {@code secret.<NAME>}). Opening contacts nobody:
 * targets are checked per dataset and per call.
 */
public final class HttpCallbackAdapterProvider implements StoreAdapterProvider {

    @Override
    public String type() {
        return "HTTP_CALLBACK";
    }

    @Override
    public SettingsSpec settings() {
        return HttpCallbackSettings.SPEC;
    }

    @Override
    public StoreAdapter open(StoreConnection connection) {
        return open(HttpCallbackSettings.from(connection), HostResolver.SYSTEM, Clock.systemUTC());
    }

    /**
     * An adapter on {@code settings} whose targets are resolved by {@code resolver}, for registration and calls alike.
     */
    public static HttpCallbackAdapter open(HttpCallbackSettings settings, HostResolver resolver, Clock clock) {
        TargetPolicy policy = new TargetPolicy(settings, resolver);
        CallbackClient client = new CallbackClient(policy, new SecretHeaders(settings), settings, clock);
        return new HttpCallbackAdapter(settings, policy, client, clock);
    }
}
