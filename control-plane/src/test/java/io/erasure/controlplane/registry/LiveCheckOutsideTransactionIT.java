package io.erasure.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.model.dataset.DatasetSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The live check is an HTTP call to the deletion service of up to its timeout: while it is pending, the dataset being
 * changed is not locked, so the scheduler, a kill switch or another change is not held behind a slow store. The
 * deletion service's answer is played by a local HTTP endpoint that holds the check until the test releases it.
 */
class LiveCheckOutsideTransactionIT extends ControlPlaneTestSupport {

    private static final HttpServer DELETION_SERVICE = start();
    private static volatile CountDownLatch entered = new CountDownLatch(0);
    private static volatile CountDownLatch release = new CountDownLatch(0);

    @DynamicPropertySource
    static void liveCheck(DynamicPropertyRegistry registry) {
        registry.add("erasure.registry.live-check.enabled", () -> "true");
        registry.add(
                "erasure.registry.live-check.url",
                () -> "http://127.0.0.1:" + DELETION_SERVICE.getAddress().getPort());
    }

    @Autowired
    TransactionTemplate transactions;

    @AfterAll
    static void stop() {
        DELETION_SERVICE.stop(0);
    }

    @Test
    void whileAnUpdatesLiveCheckIsPendingTheDatasetIsNotLockedAndTheCheckedSpecIsStoredAfter() throws Exception {
        DatasetSpec spec = registerDataset();
        entered = new CountDownLatch(1);
        release = new CountDownLatch(1);
        DatasetSpec changed = spec.toBuilder().priority(spec.priority() + 1).build();
        CompletableFuture<Integer> update = CompletableFuture.supplyAsync(() -> as("owner")
                .put()
                .uri("/api/datasets/" + spec.name())
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(changed))
                .exchange()
                .returnResult(String.class)
                .getStatus()
                .value());
        try {
            assertThat(entered.await(30, TimeUnit.SECONDS))
                    .as("the update asked the deletion service")
                    .isTrue();

            Boolean lockedAtOnce = transactions.execute(status -> jdbc.queryForObject(
                    "SELECT true FROM datasets WHERE name = ? FOR UPDATE NOWAIT", Boolean.class, spec.name()));
            assertThat(lockedAtOnce)
                    .as("another writer locks the dataset while the check is pending")
                    .isTrue();
        } finally {
            release.countDown();
        }

        assertThat(update.get(30, TimeUnit.SECONDS)).isEqualTo(200);
        Map<String, Object> stored = jdbc.queryForMap(
                "SELECT revision, (spec ->> 'priority')::int AS priority FROM datasets WHERE name = ?", spec.name());
        assertThat(stored).containsEntry("revision", 2).containsEntry("priority", spec.priority() + 1);
    }

    private static HttpServer start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/api/dataset-checks", exchange -> {
                exchange.getRequestBody().readAllBytes();
                entered.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                byte[] answer = "{\"dataset\":\"checked\",\"problems\":[]}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, answer.length);
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(answer);
                }
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
