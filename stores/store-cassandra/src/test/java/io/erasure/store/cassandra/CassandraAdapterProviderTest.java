package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CassandraAdapterProviderTest {

    @Test
    void theProviderIsFoundThroughServiceLoaderByItsType() {
        StoreAdapters adapters = StoreAdapters.load();

        assertThat(adapters.types()).contains("CASSANDRA");
        assertThat(adapters.provider(StoreKind.CASSANDRA)).isInstanceOf(CassandraAdapterProvider.class);
    }

    @Test
    void incompleteSettingsAreRefusedBeforeAnyConnectionIsTried() {
        StoreConnection connection =
                new StoreConnection("cassandra-main", StoreKind.CASSANDRA, Map.of("local-datacenter", "dc1"));

        assertThatThrownBy(() -> StoreAdapters.load().open(connection))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("erasure.connections.cassandra-main.settings.contact-points");
    }

    @Test
    void aMisspeltSettingIsRefusedBeforeAnyConnectionIsTried() {
        StoreConnection connection = new StoreConnection(
                "cassandra-main",
                StoreKind.CASSANDRA,
                Map.of("contact-points", "127.0.0.1:1", "local-datacenter", "dc1", "consistancy", "ALL"));

        assertThatThrownBy(() -> StoreAdapters.load().open(connection))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'consistancy' (did you mean 'consistency'?)");
    }

    @Test
    void theSpecKnowsTheLoadLimitsAndTheBulkPathsSettings() {
        assertThat(CassandraSettings.SPEC.names())
                .contains(
                        "load.pending-compactions",
                        "load.read-latency-ms",
                        "storage-port",
                        "sstableloader-config",
                        "jmx-host",
                        "jmx-port");
    }
}
