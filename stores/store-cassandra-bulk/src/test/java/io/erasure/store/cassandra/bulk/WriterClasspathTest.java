package io.erasure.store.cassandra.bulk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the SSTable writer's classes come from, and the errors that name the setting to fix. */
class WriterClasspathTest {

    private static final String PROPERTY = "erasure.recovery.bulk-writer-classpath";

    @Test
    void withNothingConfiguredTheRuntimeCassandraClasspathOnThisJvmIsUsed() {
        String classpath = WriterClasspath.resolve(" ", PROPERTY);

        assertThat(classpath)
                .contains("runtime-cassandra")
                .contains("cassandra-all")
                .contains("process-guard");
    }

    @Test
    void aConfiguredClasspathWithEveryClassIsTakenAsItIs() {
        String complete = WriterClasspath.resolve(null, PROPERTY);

        assertThat(WriterClasspath.resolve(complete, PROPERTY)).isEqualTo(complete);
    }

    @Test
    void aFolderWildcardStandsForItsJars(@TempDir Path folder) throws Exception {
        for (String entry : WriterClasspath.resolve(null, PROPERTY).split(File.pathSeparator)) {
            Path file = Path.of(entry);
            if (Files.isRegularFile(file)) {
                Files.createSymbolicLink(folder.resolve(file.getFileName()), file);
            } else {
                // runtime-cassandra's classes folder when the reactor runs before its jar exists
                return;
            }
        }

        assertThat(WriterClasspath.resolve(folder + File.separator + "*", PROPERTY))
                .isEqualTo(folder + File.separator + "*");
    }

    @Test
    void aMissingFileOrFolderIsNamedWithTheProperty(@TempDir Path folder) {
        assertThatThrownBy(
                        () -> WriterClasspath.resolve(folder.resolve("nope.jar").toString(), PROPERTY))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(PROPERTY)
                .hasMessageContaining("nope.jar")
                .hasMessageContaining("does not exist");
        assertThatThrownBy(() -> WriterClasspath.resolve(folder.resolve("gone") + "/*", PROPERTY))
                .hasMessageContaining(PROPERTY)
                .hasMessageContaining("gone");
    }

    @Test
    void aClasspathWithoutTheWriterOrCassandraSaysWhatIsMissing(@TempDir Path folder) {
        assertThatThrownBy(() -> WriterClasspath.resolve(folder + "/*", PROPERTY))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(PROPERTY)
                .hasMessageContaining("SSTableWriterMain (the runtime-cassandra jar)")
                .hasMessageContaining("OrphanGuard (the process-guard jar)")
                .hasMessageContaining("CQLSSTableWriter (cassandra-all)");
    }

    @Test
    void aConnectionWithoutJmxCannotTakeTheBulkPath(@TempDir Path folder) {
        StoreConnection connection = new StoreConnection(
                "cassandra-main",
                StoreKind.CASSANDRA,
                Map.of("contact-points", "10.0.0.1:9042", "local-datacenter", "dc1"));

        assertThatThrownBy(() -> BulkSettings.of(connection, folder, Duration.ofMinutes(1), "256m", null))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("erasure.connections.cassandra-main.settings.jmx-host and .jmx-port");
    }

    @Test
    void aConnectionsJmxAddressAndCredentialsAreTheBulkSettings(@TempDir Path folder) {
        StoreConnection connection = new StoreConnection(
                "cassandra-main",
                StoreKind.CASSANDRA,
                Map.of(
                        "contact-points",
                        "10.0.0.1:9042",
                        "local-datacenter",
                        "dc1",
                        "jmx-port",
                        "7199",
                        "username",
                        "erasure",
                        "password",
                        "secret"));

        BulkSettings settings = BulkSettings.of(connection, folder, Duration.ofMinutes(1), "256m", "/opt/writer/*");

        assertThat(settings.jmx().getHostString()).isEqualTo("10.0.0.1");
        assertThat(settings.jmx().getPort()).isEqualTo(7199);
        assertThat(settings.jmxEnvironment()).containsKey("jmx.remote.credentials");
        assertThat(settings.writerClasspath()).isEqualTo("/opt/writer/*");
    }
}
