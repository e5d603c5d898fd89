package io.erasure.store.spi;

import io.erasure.model.dataset.StoreKind;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/** The store adapter providers on the classpath, found through {@link ServiceLoader} and keyed by type. */
public final class StoreAdapters {

    private final Map<String, StoreAdapterProvider> providers;

    StoreAdapters(Map<String, StoreAdapterProvider> providers) {
        this.providers = Map.copyOf(providers);
    }

    public static StoreAdapters load() {
        return load(StoreAdapters.class.getClassLoader());
    }

    public static StoreAdapters load(ClassLoader loader) {
        return new StoreAdapters(
                ProvidersByType.load(StoreAdapterProvider.class, loader, StoreAdapterProvider::type, "store adapters"));
    }

    /** The provider for {@code kind}; fails with the known types and how to add one. */
    public StoreAdapterProvider provider(StoreKind kind) {
        StoreAdapterProvider provider = providers.get(kind.name());
        if (provider == null) {
            throw new StoreException.Fatal("no store adapter for type " + kind.name() + " on the classpath; available: "
                    + (providers.isEmpty() ? "none" : String.join(", ", providers.keySet()))
                    + ". Add the adapter module (stores/store-"
                    + kind.name().toLowerCase().replace('_', '-')
                    + ") to this service's dependencies.");
        }
        return provider;
    }

    /**
     * Opens an adapter on {@code connection} once its settings are known to its type ({@link SettingsSpec#check}).
     *
     * @throws StoreException.Fatal for an unknown type or setting, or settings the provider refuses
     */
    public StoreAdapter open(StoreConnection connection) {
        StoreAdapterProvider provider = provider(connection.kind());
        provider.settings().check(connection);
        return provider.open(connection);
    }

    public Set<String> types() {
        return providers.keySet();
    }
}
