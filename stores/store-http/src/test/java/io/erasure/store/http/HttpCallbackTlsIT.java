package io.erasure.store.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.http.target.HostResolver;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import io.erasure.store.tck.ContractTable.FixtureRow;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS with the address pinned: the client connects to the address its one lookup checked, yet TLS is about the
 * URL's host: it is sent as SNI and the certificate must be for it. A real HTTPS owner on 127.0.0.2, with a
 * certificate for {@code owner.test} made by keytool for this run.
 */
class HttpCallbackTlsIT {

    private static final String PASSWORD = "changeit";
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(Instant.parse("2026-01-01T00:00:00Z"));

    @TempDir
    static Path dir;

    private static FakeOwnerService owner;
    private static SSLContext trustingTheOwner;

    @BeforeAll
    static void start() throws Exception {
        Path keys = dir.resolve("owner.p12");
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "owner",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=owner.test",
                        "-ext",
                        "SAN=dns:owner.test",
                        "-validity",
                        "2",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        keys.toString(),
                        "-storepass",
                        PASSWORD,
                        "-keypass",
                        PASSWORD)
                .redirectErrorStream(true)
                .start();
        String output = new String(keytool.getInputStream().readAllBytes());
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS))
                .as("keytool finished: " + output)
                .isTrue();
        assertThat(keytool.exitValue()).as("keytool: " + output).isZero();

        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keys)) {
            keyStore.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keyStore, PASSWORD.toCharArray());
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(keyManagers.getKeyManagers(), null, null);

        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("owner", keyStore.getCertificate("owner"));
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trusted);
        trustingTheOwner = SSLContext.getInstance("TLS");
        trustingTheOwner.init(null, trustManagers.getTrustManagers(), null);

        owner = FakeOwnerService.startTls("127.0.0.2", serverTls);
        owner.createTable("tls");
    }

    @AfterAll
    static void stop() {
        owner.close();
    }

    @Test
    void anHttpsCallbackGoesToTheCheckedAddressWithTheUrlsHostAsSniAndCertificateName() {
        owner.put("tls", new FixtureRow(1, "row-1", 1, 1, null));
        StoreAdapter adapter = adapter("owner.test");
        DatasetSpec spec = CallbackFixtures.spec("tls", "https://owner.test:" + owner.port() + "/tls/delete", null);

        DeleteOutcome outcome = adapter.executeDelete(
                adapter.planDelete(new DeleteBatch(spec, "batch-tls", CUTOFF, List.of(Map.of("id", 1L)))));

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(owner.get("tls", 1)).isEmpty();
        assertThat(owner.received("tls")).last().satisfies(request -> {
            assertThat(request.serverName()).isEqualTo("owner.test");
            assertThat(request.headers().get("host")).isEqualTo("owner.test:" + owner.port());
        });
        adapter.close();
    }

    @Test
    void aCertificateForAnotherHostIsRefusedThoughTheAddressWasChecked() {
        owner.put("tls", new FixtureRow(2, "row-2", 1, 1, null));
        int before = owner.received("tls").size();
        StoreAdapter adapter = adapter("other.test");
        DatasetSpec spec = CallbackFixtures.spec("tls", "https://other.test:" + owner.port() + "/tls/delete", null);

        assertThatThrownBy(() -> adapter.executeDelete(adapter.planDelete(
                        new DeleteBatch(spec, "batch-other-name", CUTOFF, List.of(Map.of("id", 2L))))))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("https://other.test:" + owner.port())
                // the attempt's failure, caused by the TLS check
                .cause()
                .cause()
                .isInstanceOf(SSLException.class);
        assertThat(owner.received("tls")).hasSize(before);
        assertThat(owner.get("tls", 2)).isPresent();
        adapter.close();
    }

    /**
     * An adapter for {@code host}, which its resolver answers with 127.0.0.2 (allowed by operators). The adapter
     * trusts the JVM's default trust store, as operators configure it; the test's certificate is made the default
     * only while the client is built, and the client keeps it.
     */
    private static StoreAdapter adapter(String host) {
        HostResolver dns = name -> List.of(InetAddress.getByName("127.0.0.2"));
        HttpCallbackSettings settings = HttpCallbackSettings.from(new StoreConnection(
                "tls",
                StoreKind.HTTP_CALLBACK,
                Map.of(
                        "allowed-hosts",
                        host,
                        "allowed-addresses",
                        "127.0.0.2/32",
                        "secret.owner-token",
                        FakeOwnerService.TOKEN,
                        "secret-teams.owner-token",
                        "owners",
                        "max-attempts",
                        "1")));
        return withDefaultTls(
                trustingTheOwner, () -> HttpCallbackAdapterProvider.open(settings, dns, Clock.systemUTC()));
    }

    private static <T> T withDefaultTls(SSLContext context, Supplier<T> build) {
        try {
            SSLContext saved = SSLContext.getDefault();
            SSLContext.setDefault(context);
            try {
                return build.get();
            } finally {
                SSLContext.setDefault(saved);
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no default TLS context", e);
        }
    }
}
