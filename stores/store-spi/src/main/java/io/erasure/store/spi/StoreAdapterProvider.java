package io.erasure.store.spi;

/**
 * Creates adapters for one kind of store. Implementations are listed in
 * {@code META-INF/services/io.erasure.store.spi.StoreAdapterProvider} and found by {@link #type()}
 * through {@link StoreAdapters}; a new store is one module with one provider.
 *
 * <p>Providers are stateless and thread-safe.
 */
public interface StoreAdapterProvider {

    /** The store kind this provider serves, the name of a {@code StoreKind} (e.g. {@code CASSANDRA}). */
    String type();

    /**
     * The connection settings this type's adapters read; {@link StoreAdapters#open} refuses a connection with any
     * other setting before calling {@link #open}.
     */
    SettingsSpec settings();

    /**
     * Opens an adapter on one store (cluster or database). The adapter owns its connections until
     * {@link StoreAdapter#close()}.
     *
     * @throws StoreException.Fatal if the connection settings are incomplete or wrong
     * @throws StoreException.Retriable if the store cannot be reached right now
     */
    StoreAdapter open(StoreConnection connection);
}
