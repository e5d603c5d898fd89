package io.erasure.store.spi;

import io.erasure.model.dataset.StoreKind;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/** The bulk restore providers on the classpath ({@link BulkRestoreProvider}), found through {@link ServiceLoader}. */
public final class BulkRestoreProviders {

    private final Map<String, BulkRestoreProvider> providers;

    BulkRestoreProviders(Map<String, BulkRestoreProvider> providers) {
        this.providers = Map.copyOf(providers);
    }

    public static BulkRestoreProviders load() {
        return load(BulkRestoreProviders.class.getClassLoader());
    }

    public static BulkRestoreProviders load(ClassLoader loader) {
        return new BulkRestoreProviders(ProvidersByType.load(
                BulkRestoreProvider.class, loader, BulkRestoreProvider::type, "bulk restore providers"));
    }

    /** The provider for {@code kind}, or empty: that kind restores online only. */
    public Optional<BulkRestoreProvider> provider(StoreKind kind) {
        return Optional.ofNullable(providers.get(kind.name()));
    }

    public Set<String> types() {
        return providers.keySet();
    }
}
