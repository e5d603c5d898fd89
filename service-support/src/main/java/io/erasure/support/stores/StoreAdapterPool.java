package io.erasure.support.stores;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One open adapter per configured connection, shared by the whole service (adapters are thread-safe),
 * opened on first use and closed with the application context. A dataset spec is checked against the
 * live schema once before its first use.
 */
public class StoreAdapterPool implements AutoCloseable {

    private final StoreAdapters adapters;
    private final StoreConnectionsProperties properties;
    private final Map<String, StoreAdapter> open = new ConcurrentHashMap<>();
    private final Set<DatasetSpec> checked = ConcurrentHashMap.newKeySet();

    public StoreAdapterPool(StoreAdapters adapters, StoreConnectionsProperties properties) {
        this.adapters = adapters;
        this.properties = properties;
    }

    /** The adapter for a connection reference; fails with how to configure it if it is unknown. */
    public StoreAdapter adapter(String connectionRef) {
        return open.computeIfAbsent(connectionRef, ref -> {
            StoreConnectionsProperties.Connection connection =
                    properties.connections().get(ref);
            if (connection == null || connection.kind() == null) {
                throw new StoreException.Fatal("connection '" + ref + "' is not configured in this service; add"
                        + " erasure.connections." + ref + ".kind and .settings (known: "
                        + properties.connections().keySet()
                        + ")");
            }
            return adapters.open(new StoreConnection(ref, connection.kind(), connection.settings()));
        });
    }

    /** The references of every configured connection. */
    public Set<String> connectionRefs() {
        return Set.copyOf(properties.connections().keySet());
    }

    /** The adapter for a dataset, after checking the dataset against the live schema (once per spec). */
    public StoreAdapter checkedAdapter(DatasetSpec spec) {
        StoreAdapter adapter = adapter(spec.connectionRef());
        if (!checked.contains(spec)) {
            adapter.checkDataset(spec);
            checked.add(spec);
        }
        return adapter;
    }

    @Override
    public void close() {
        open.values().forEach(StoreAdapter::close);
        open.clear();
    }
}
