package io.erasure.store.cassandra.bulk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.cassandra.bulk.BulkSettings.Loader;
import io.erasure.store.cassandra.bulk.BulkSettings.Streaming;
import io.erasure.store.spi.StoreConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which loader a bulk restore takes ({@code import}, {@code sstableloader}, {@code auto}) and its command line. */
class BulkSettingsTest {

    private static final String PROPERTY = "erasure.recovery.bulk-loader";

    @Test
    void autoImportsIntoANodeOnThisMachineWhoseWorkDirExists(@TempDir Path work) {
        assertThat(settings("127.0.0.1", work, Loader.AUTO).chosenLoader()).isEqualTo(Loader.IMPORT);
        assertThat(settings("localhost", work, Loader.AUTO).chosenLoader()).isEqualTo(Loader.IMPORT);
        assertThat(settings("::1", work, Loader.AUTO).chosenLoader()).isEqualTo(Loader.IMPORT);
    }

    @Test
    void autoImportsIntoANodeOnAnotherLocalInterfaceAddress(@TempDir Path work) throws Exception {
        InetAddress own = NetworkInterface.networkInterfaces()
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> !a.isLoopbackAddress())
                .findFirst()
                .orElse(InetAddress.getLoopbackAddress());

        assertThat(settings(own.getHostAddress(), work, Loader.AUTO).chosenLoader())
                .isEqualTo(Loader.IMPORT);
    }

    @Test
    void autoCreatesAMissingWorkDirForALocalNodeAndStreamsWhenItCannot(@TempDir Path work) throws Exception {
        Path missing = work.resolve("not-yet/bulk");
        assertThat(settings("127.0.0.1", missing, Loader.AUTO).chosenLoader()).isEqualTo(Loader.IMPORT);
        assertThat(missing).isDirectory();

        Path file = Files.writeString(work.resolve("a-file"), "x");
        assertThat(settings("127.0.0.1", file.resolve("bulk"), Loader.AUTO).chosenLoader())
                .isEqualTo(Loader.SSTABLELOADER);
    }

    @Test
    void autoStreamsToANodeOnAnotherMachine(@TempDir Path work) {
        // TEST-NET-1 (RFC 5737): never an address of this machine
        assertThat(settings("192.0.2.10", work, Loader.AUTO).chosenLoader()).isEqualTo(Loader.SSTABLELOADER);
        assertThat(settings("no-such-host.invalid", work, Loader.AUTO).chosenLoader())
                .isEqualTo(Loader.SSTABLELOADER);
    }

    @Test
    void anExplicitLoaderIsTakenAsItIs(@TempDir Path work) {
        assertThat(settings("127.0.0.1", work, Loader.SSTABLELOADER).chosenLoader())
                .isEqualTo(Loader.SSTABLELOADER);
        assertThat(settings("192.0.2.10", work, Loader.IMPORT).chosenLoader()).isEqualTo(Loader.IMPORT);
    }

    @Test
    void theSettingParsesItsThreeValuesAndNamesItselfOtherwise() {
        assertThat(Loader.parse("import", PROPERTY)).isEqualTo(Loader.IMPORT);
        assertThat(Loader.parse(" SSTableLoader ", PROPERTY)).isEqualTo(Loader.SSTABLELOADER);
        assertThat(Loader.parse("auto", PROPERTY)).isEqualTo(Loader.AUTO);
        assertThat(Loader.parse("", PROPERTY)).isEqualTo(Loader.AUTO);
        assertThatThrownBy(() -> Loader.parse("nodetool", PROPERTY))
                .hasMessageContaining(PROPERTY)
                .hasMessageContaining("import, sstableloader or auto")
                .hasMessageContaining("nodetool");
    }

    @Test
    void aConnectionGivesSstableloaderItsContactPointsCredentialsStoragePortAndTlsConfig(@TempDir Path work) {
        StoreConnection connection = new StoreConnection(
                "cassandra-main",
                StoreKind.CASSANDRA,
                Map.of(
                        "contact-points",
                        "10.0.0.1:9142,10.0.0.2:9142",
                        "local-datacenter",
                        "dc1",
                        "jmx-port",
                        "7199",
                        "username",
                        "erasure",
                        "password",
                        "secret",
                        "storage-port",
                        "7010",
                        "sstableloader-config",
                        "/etc/erasure/loader.yaml"));

        BulkSettings settings =
                BulkSettings.of(connection, work, Duration.ofMinutes(1), "256m", null, Loader.SSTABLELOADER);

        assertThat(settings.streaming().toString()).doesNotContain("secret");
        assertThat(SSTableLoaderProcess.arguments(settings.streaming(), Path.of("/work/bulk-1/ks/t")))
                .containsExactly(
                        "-d",
                        "10.0.0.1:9142,10.0.0.2:9142",
                        "-p",
                        "9142",
                        "-sp",
                        "7010",
                        "-u",
                        "erasure",
                        "-pw",
                        "secret",
                        "-f",
                        "/etc/erasure/loader.yaml",
                        "--no-progress",
                        "/work/bulk-1/ks/t");
    }

    @Test
    void withoutStoragePortOrCredentialsTheLoaderTakesWhatTheNodesAdvertise() {
        Streaming streaming = new Streaming(List.of(new InetSocketAddress("127.0.0.1", 19042)));

        assertThat(SSTableLoaderProcess.arguments(streaming, Path.of("/w/ks/t")))
                .containsExactly("-d", "127.0.0.1:19042", "-p", "19042", "--no-progress", "/w/ks/t");
    }

    private static BulkSettings settings(String jmxHost, Path work, Loader loader) {
        return new BulkSettings(
                        InetSocketAddress.createUnresolved(jmxHost, 7199),
                        Map.of(),
                        work,
                        Duration.ofMinutes(1),
                        "256m")
                .withLoader(loader, null);
    }
}
