package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CassandraSettingsTest {

    @Test
    void defaultsAreLocalQuorumAndACapOfOneHundredRowTombstones() {
        CassandraSettings settings = CassandraSettings.from(connection(Map.of()));

        assertThat(settings.consistency()).isEqualTo(DefaultConsistencyLevel.LOCAL_QUORUM);
        assertThat(settings.maxRowTombstonesPerPartition()).isEqualTo(100);
        assertThat(settings.contactPoints()).hasSize(2);
        assertThat(settings.jmx()).isEmpty();
    }

    @Test
    void consistencyIsConfigurable() {
        assertThat(CassandraSettings.from(connection(Map.of("consistency", "one")))
                        .consistency())
                .isEqualTo(DefaultConsistencyLevel.ONE);
    }

    @Test
    void aMisspelledConsistencyIsRefusedWithTheChoices() {
        assertThatThrownBy(() -> CassandraSettings.from(connection(Map.of("consistency", "QUORUMM"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'consistency'")
                .hasMessageContaining("LOCAL_QUORUM");
    }

    @Test
    void contactPointsNeedHostAndPort() {
        assertThatThrownBy(() -> CassandraSettings.from(connection(Map.of("contact-points", "cassandra-1"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("host:port");
    }

    @Test
    void aMissingDatacenterNamesTheSettingToConfigure() {
        Map<String, String> settings = new HashMap<>(base());
        settings.remove("local-datacenter");
        assertThatThrownBy(() -> CassandraSettings.from(new StoreConnection("main", StoreKind.CASSANDRA, settings)))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("erasure.connections.main.settings.local-datacenter");
    }

    @Test
    void theJmxHostDefaultsToTheFirstContactPoint() {
        CassandraSettings settings = CassandraSettings.from(connection(Map.of("jmx-port", "7199")));

        assertThat(settings.jmx()).hasValueSatisfying(jmx -> {
            assertThat(jmx.getHostString()).isEqualTo("10.0.0.1");
            assertThat(jmx.getPort()).isEqualTo(7199);
        });
    }

    @Test
    void theTombstoneCapMustBePositive() {
        assertThatThrownBy(() -> CassandraSettings.from(connection(Map.of("max-row-tombstones-per-partition", "0"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("max-row-tombstones-per-partition");
    }

    @Test
    void aReadStatementAsksForAtMostOneHundredKeysUnlessConfigured() {
        assertThat(CassandraSettings.from(connection(Map.of())).maxKeysPerRead())
                .isEqualTo(100);
        assertThat(CassandraSettings.from(connection(Map.of("max-keys-per-read", "20")))
                        .maxKeysPerRead())
                .isEqualTo(20);
        assertThatThrownBy(() -> CassandraSettings.from(connection(Map.of("max-keys-per-read", "0"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("max-keys-per-read");
    }

    private static StoreConnection connection(Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(base());
        settings.putAll(extra);
        return new StoreConnection("main", StoreKind.CASSANDRA, settings);
    }

    private static Map<String, String> base() {
        return Map.of("contact-points", "10.0.0.1:9042, 10.0.0.2:9042", "local-datacenter", "dc1");
    }
}
