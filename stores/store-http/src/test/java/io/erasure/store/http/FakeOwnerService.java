package io.erasure.store.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsServer;
import io.erasure.store.tck.ContractTable.FixtureRow;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The data owner's service, for real, on 127.0.0.1 (or another loopback address, over HTTP or HTTPS): its store is an
 * in-memory map of tables of rows, and it answers {@code POST /<table>/delete} (deletes the rows named in {@code keys},
 * answers the counts) and {@code POST /<table>/check} (answers {@code present} per key), after checking the
 * {@code Authorization} header (401 otherwise). Tests may script answers ahead of the real ones (a 503, a slow answer)
 * and read what it received.
 */
final class FakeOwnerService implements AutoCloseable {

    static final String TOKEN = "Bearer owner-s3cr3t-7f1c2a";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Map<String, Map<Long, FixtureRow>> tables = new ConcurrentHashMap<>();
    private final Map<String, Deque<Scripted>> scripts = new ConcurrentHashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();

    private FakeOwnerService(HttpServer server) {
        this.server = server;
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    static FakeOwnerService start() {
        try {
            return new FakeOwnerService(
                    HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the fake owner service", e);
        }
    }

    /** A service on {@code address} (any of 127.0.0.0/8 on Linux) and {@code port} (0: any free one). */
    static FakeOwnerService start(String address, int port) throws IOException {
        return new FakeOwnerService(HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), port), 0));
    }

    /** An HTTPS service on {@code address}, any free port, with the key and certificate of {@code tls}. */
    static FakeOwnerService startTls(String address, SSLContext tls) throws IOException {
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getByName(address), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        return new FakeOwnerService(server);
    }

    /** {@code http://127.0.0.1:<port>/<table>/<action>}. */
    String url(String table, String action) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + table + "/" + action;
    }

    int port() {
        return server.getAddress().getPort();
    }

    void createTable(String table) {
        tables.put(table, new ConcurrentHashMap<>());
    }

    void put(String table, FixtureRow row) {
        tables.computeIfAbsent(table, t -> new ConcurrentHashMap<>()).put(row.id(), row);
    }

    Optional<FixtureRow> get(String table, long id) {
        return Optional.ofNullable(tables.getOrDefault(table, Map.of()).get(id));
    }

    /** The next request to {@code /<table>/...} is answered so, before any real answer, after {@code delay}. */
    void scriptNext(String table, int status, String body, Map<String, String> headers, Duration delay) {
        scripts.computeIfAbsent(table, t -> new ConcurrentLinkedDeque<>())
                .add(new Scripted(status, body, headers, delay));
    }

    void scriptNext(String table, int status, String body) {
        scriptNext(table, status, body, Map.of(), Duration.ZERO);
    }

    /** Every request to {@code /<table>/...}, in arrival order. */
    List<Received> received(String table) {
        return received.stream().filter(r -> r.table().equals(table)).toList();
    }

    /**
     * {@link #received}, once it holds {@code count} requests (a timed-out client may be ahead of the server's log).
     */
    List<Received> receivedAtLeast(String table, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (received(table).size() < count && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return received(table);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String[] path = exchange.getRequestURI().getPath().split("/");
            String table = path.length > 1 ? path[1] : "";
            String action = path.length > 2 ? path[2] : "";
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.get(0)));
            received.add(new Received(table, action, exchange.getRequestMethod(), headers, body, serverName(exchange)));

            Scripted scripted =
                    scripts.getOrDefault(table, new ConcurrentLinkedDeque<>()).poll();
            if (scripted != null) {
                Thread.sleep(scripted.delay().toMillis());
                scripted.headers().forEach(exchange.getResponseHeaders()::add);
                reply(exchange, scripted.status(), scripted.body());
                return;
            }
            if (!TOKEN.equals(headers.get("authorization"))) {
                reply(exchange, 401, "{\"error\": \"bad credentials\"}");
                return;
            }
            Map<Long, FixtureRow> rows = tables.get(table);
            if (rows == null) {
                reply(exchange, 404, "no such table " + table);
                return;
            }
            JsonNode request = JSON.readTree(body);
            List<Long> ids = new ArrayList<>();
            request.get("keys").forEach(key -> ids.add(key.get("id").longValue()));
            switch (action) {
                case "delete" -> {
                    int deleted = 0;
                    for (long id : ids) {
                        deleted += rows.remove(id) == null ? 0 : 1;
                    }
                    reply(exchange, 200, "{\"deleted\": " + deleted + ", \"absent\": " + (ids.size() - deleted) + "}");
                }
                case "check" ->
                    reply(
                            exchange,
                            200,
                            JSON.writeValueAsString(Map.of(
                                    "present",
                                    ids.stream().map(rows::containsKey).toList())));
                default -> reply(exchange, 404, "no such action " + action);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The host name the client asked for in TLS (SNI), or null. */
    private static String serverName(HttpExchange exchange) {
        if (exchange instanceof HttpsExchange https && https.getSSLSession() instanceof ExtendedSSLSession session) {
            return session.getRequestedServerNames().stream()
                    .filter(SNIHostName.class::isInstance)
                    .map(name -> ((SNIHostName) name).getAsciiName())
                    .findFirst()
                    .orElse(null);
        }
        return null;
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /**
     * A request as the owner received it; header names in lower case; {@code serverName} the TLS SNI (null over HTTP).
     */
    record Received(
            String table, String action, String method, Map<String, String> headers, String body, String serverName) {}

    private record Scripted(int status, String body, Map<String, String> headers, Duration delay) {}
}
