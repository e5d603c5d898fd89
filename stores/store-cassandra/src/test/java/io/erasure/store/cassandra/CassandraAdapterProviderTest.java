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
                .hasMessageContaining("erasure.connections.cassandra-main.contact-points");
    }
}
