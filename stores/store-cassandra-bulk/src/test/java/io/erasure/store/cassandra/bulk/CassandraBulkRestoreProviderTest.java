package io.erasure.store.cassandra.bulk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.BulkRestore;
import io.erasure.store.spi.BulkRestoreOptions;
import io.erasure.store.spi.BulkRestoreProvider;
import io.erasure.store.spi.BulkRestoreProviders;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cassandra's bulk path as services find it: through the SPI, with its options and connections checked first. */
class CassandraBulkRestoreProviderTest {

    private static final String PREFIX = "erasure.recovery.bulk-";

    @TempDir
    Path work;

    @Test
    void servicesFindItByTypeThroughTheSpi() {
        BulkRestoreProviders providers = BulkRestoreProviders.load();

        assertThat(providers.provider(StoreKind.CASSANDRA)).get().isInstanceOf(CassandraBulkRestoreProvider.class);
        assertThat(providers.provider(StoreKind.POSTGRES))
                .as("no bulk path: online only")
                .isEmpty();
    }

    @Test
    void aMalformedLoaderIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> provider().open(options(null, "nodetool"), Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("erasure.recovery.bulk-loader")
                .hasMessageContaining("'nodetool'");
    }

    @Test
    void aWriterClasspathThatIsNotThereIsRefusedNamingTheSetting() {
        String missing = work.resolve("sstable-writer") + "/*";

        assertThatThrownBy(() -> provider().open(options(missing, "import"), Clock.systemUTC()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("erasure.recovery.bulk-writer-classpath")
                .hasMessageContaining("sstable-writer");
    }

    @Test
    void aConnectionWithoutJmxCannotTakeBulkRestoresAndSaysWhichSettingsAreMissing() {
        BulkRestore bulk = provider().open(options(null, null), Clock.systemUTC());

        assertThat(bulk.unavailable(connection(Map.of("contact-points", "127.0.0.1:9042", "local-datacenter", "dc1"))))
                .get()
                .asString()
                .contains("erasure.connections.main.settings.jmx-host")
                .contains("jmx-port");
        assertThat(bulk.unavailable(connection(
                        Map.of("contact-points", "127.0.0.1:9042", "local-datacenter", "dc1", "jmx-port", "7199"))))
                .isEmpty();
    }

    @Test
    void anAdapterOfAnotherStoreIsRefusedBeforeAnythingIsWritten() {
        BulkRestore bulk = provider().open(options(null, null), Clock.systemUTC());
        StoreAdapter other = mock(StoreAdapter.class);
        DatasetSpec spec = BulkFixtures.spec("shop", "profiles", KeyColumns.partitionOnly("id"), "id");

        assertThatThrownBy(() -> bulk.restore(
                        other,
                        connection(Map.of(
                                "contact-points", "127.0.0.1:9042", "local-datacenter", "dc1", "jmx-port", "7199")),
                        spec,
                        List.of()))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("not a Cassandra connection");
        verifyNoInteractions(other);
    }

    private static BulkRestoreProvider provider() {
        return BulkRestoreProviders.load().provider(StoreKind.CASSANDRA).orElseThrow();
    }

    private BulkRestoreOptions options(String classpath, String loader) {
        return new BulkRestoreOptions(PREFIX, work, Duration.ofMinutes(1), "256m", classpath, loader);
    }

    private static StoreConnection connection(Map<String, String> settings) {
        return new StoreConnection("main", StoreKind.CASSANDRA, settings);
    }
}
