package io.erasure.recovery.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.BulkRestoreOptions;
import io.erasure.store.spi.BulkRestoreProviders;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.stores.StoreConnectionsProperties;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which recoveries take the bulk path, and the error that names the setting when its writer has no classpath. */
class BulkRestoresTest {

    @TempDir
    Path work;

    @Test
    void cassandraRecoveriesFromTheThresholdOnTakeTheBulkPath() {
        BulkRestores bulk = bulk(1000, null);

        assertThat(bulk.pathFor(spec(StoreKind.CASSANDRA), 999)).isEqualTo(RestorePath.ONLINE);
        assertThat(bulk.pathFor(spec(StoreKind.CASSANDRA), 1000)).isEqualTo(RestorePath.BULK);
        assertThat(bulk.pathFor(spec(StoreKind.POSTGRES), 1_000_000))
                .as("other stores always restore online")
                .isEqualTo(RestorePath.ONLINE);
    }

    @Test
    void aThresholdOfZeroOrLessDisablesTheBulkPath() {
        assertThat(bulk(0, null).pathFor(spec(StoreKind.CASSANDRA), 1_000_000)).isEqualTo(RestorePath.ONLINE);
        assertThat(bulk(-1, null).pathFor(spec(StoreKind.CASSANDRA), 1_000_000)).isEqualTo(RestorePath.ONLINE);
        assertThat(bulk(0, null).enabled()).isFalse();
    }

    @Test
    void withoutAWriterClasspathTheBulkRestoreFailsNamingTheSetting() {
        BulkRestores bulk = bulk(10, work.resolve("sstable-writer") + "/*");

        assertThatThrownBy(() -> bulk.restore(spec(StoreKind.CASSANDRA), List.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("erasure.recovery.bulk-writer-classpath")
                .hasMessageContaining("sstable-writer")
                .hasMessageContaining("erasure.recovery.bulk-threshold=0");
    }

    @Test
    void aRecoveryLargeEnoughForTheBulkPathRestoresOnlineWithTheReasonWhenTheWriterIsMissing() {
        BulkRestores bulk = bulk(10, work.resolve("sstable-writer") + "/*");

        BulkRestores.PathChoice choice = bulk.choose(spec(StoreKind.CASSANDRA), 10);

        assertThat(choice.path()).isEqualTo(RestorePath.ONLINE);
        assertThat(choice.reason())
                .contains("10 records")
                .contains("erasure.recovery.bulk-threshold=10")
                .contains("erasure.recovery.bulk-writer-classpath")
                .contains("sstable-writer");
        assertThat(bulk.choose(spec(StoreKind.CASSANDRA), 9))
                .as("under the threshold: no reason to give")
                .isEqualTo(new BulkRestores.PathChoice(RestorePath.ONLINE, null));
    }

    @Test
    void aMalformedLoaderFailsTheStartNamingTheSettingWhenTheBulkPathIsOn() {
        StoreConnectionsProperties connections = new StoreConnectionsProperties(Map.of());
        BulkRestoreOptions options =
                new BulkRestoreOptions(BulkRestores.PREFIX, work, Duration.ofMinutes(1), "256m", null, "nodetool");

        assertThatThrownBy(() -> new BulkRestores(
                        new StoreAdapterPool(null, connections),
                        connections,
                        BulkRestoreProviders.load(),
                        Clock.systemUTC(),
                        10,
                        50_000,
                        options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("erasure.recovery.bulk-loader");
    }

    @Test
    void withoutABulkProviderOnTheClassPathEveryRecoveryIsOnline() {
        StoreConnectionsProperties connections = new StoreConnectionsProperties(Map.of());
        BulkRestores bulk = new BulkRestores(
                new StoreAdapterPool(null, connections),
                connections,
                BulkRestoreProviders.load(ClassLoader.getPlatformClassLoader()),
                Clock.systemUTC(),
                10,
                50_000,
                new BulkRestoreOptions(BulkRestores.PREFIX, work, Duration.ofMinutes(1), "256m", null, null));

        assertThat(bulk.choose(spec(StoreKind.CASSANDRA), 1_000_000))
                .isEqualTo(new BulkRestores.PathChoice(RestorePath.ONLINE, null));
        assertThatThrownBy(() -> bulk.restore(spec(StoreKind.CASSANDRA), List.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no bulk restore path for CASSANDRA");
    }

    private BulkRestores bulk(int threshold, String classpath) {
        StoreConnectionsProperties connections = new StoreConnectionsProperties(Map.of());
        return new BulkRestores(
                new StoreAdapterPool(null, connections),
                connections,
                Clock.systemUTC(),
                threshold,
                50_000,
                classpath,
                work,
                "256m",
                Duration.ofMinutes(1));
    }

    private static DatasetSpec spec(StoreKind kind) {
        return DatasetSpec.builder()
                .name("profiles")
                .storeKind(kind)
                .connectionRef(kind == StoreKind.CASSANDRA ? "cassandra-main" : "pg-main")
                .namespace("shop")
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(
                        kind == StoreKind.CASSANDRA
                                ? ConditionalColumn.none()
                                : ConditionalColumn.timestamp("updated_at"))
                .backup(new BackupLocation("backups/profiles/", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("shop")
                .build();
    }
}
