package io.erasure.support.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shared input rules on a real Tomcat, with the platform's own request type (a dataset spec), its security
 * chain and a body limit of 64KB: too large is 413 however the body is sent, unknown fields and numbers that do not
 * fit are 400 naming the field and what it accepts, and nothing reaches the handler.
 */
@SpringBootTest(
        classes = RequestInputTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "erasure.http.max-request-body=64KB",
            "erasure.access.users[0].name=owner",
            "erasure.access.users[0].password={noop}owner",
            "erasure.access.users[0].roles=OWNER"
        })
class RequestInputTest {

    @LocalServerPort
    int port;

    @Autowired
    JsonMapper json;

    @Autowired
    Specs specs;

    @BeforeEach
    void clear() {
        specs.received.clear();
    }

    @Test
    void aValidSpecIsReadAndAnswered() throws Exception {
        HttpResponse<String> response = post(spec(Map.of()));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(specs.received).hasSize(1);
    }

    @Test
    void aBodyThatDeclaresALengthOverTheLimitIs413BeforeItIsSent() throws Exception {
        // the headers of a 5 MB body, and not one byte of it: the answer comes from Content-Length alone
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream()
                    .write(("POST /api/specs HTTP/1.1\r\nHost: localhost\r\n"
                                    + "Content-Type: application/json\r\nContent-Length: 5000000\r\nAuthorization: "
                                    + basic()
                                    + "\r\nX-Requested-By: tests\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String response = readResponse(socket);

            assertThat(response).startsWith("HTTP/1.1 413");
            String body = response.substring(response.indexOf("\r\n\r\n") + 4);
            assertThat(json.readTree(body).path("detail").asString())
                    .contains("65536 bytes", "erasure.http.max-request-body");
            assertThat(body).hasSizeLessThan(1_000);
        }
        assertThat(specs.received).isEmpty();
    }

    private static String readResponse(Socket socket) throws Exception {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        // the problem document is small and ends with '}': read until it is complete
        while (!out.toString(StandardCharsets.UTF_8).trim().endsWith("}")) {
            int n = in.read(buffer);
            if (n < 0) {
                break;
            }
            out.write(buffer, 0, n);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aChunkedBodyIsCountedAndRefusedWith413OnceItPassesTheLimit() throws Exception {
        byte[] body = spec(Map.of("notes", "x".repeat(200_000))).getBytes(StandardCharsets.UTF_8);

        // a stream of unknown length goes out chunked, without Content-Length
        HttpResponse<String> response = http().send(
                        request()
                                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(detail(response)).contains("65536 bytes", "erasure.http.max-request-body");
        assertThat(specs.received).isEmpty();
    }

    @Test
    void anUnknownFieldIsRefusedNamingItAndTheKnownOnesWithoutEchoingItsValue() throws Exception {
        HttpResponse<String> response = post(spec(Map.of("notes", "x".repeat(50_000))));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response))
                .startsWith("field 'notes' is not known: DatasetSpec has backup, conditionalColumn, connectionRef")
                .contains("priority", "spreadOver");
        assertThat(response.body()).hasSizeLessThan(1_000);

        HttpResponse<String> nested = post(spec(Map.of("limits", Map.of("maxRows", 10, "maxRow", 5))));
        assertThat(nested.statusCode()).isEqualTo(400);
        assertThat(detail(nested))
                .startsWith("field 'limits.maxRow' is not known: DeletionLimits has maxFraction, maxRows");
        assertThat(specs.received).isEmpty();
    }

    @Test
    void aNumberOrDurationThatDoesNotFitNamesTheFieldItsRangeAndTheValue() throws Exception {
        assertRefused(
                Map.of("limits", Map.of("maxRows", 1e30)),
                "field 'limits.maxRows' must be an integer between 0 and 9223372036854775807; got 1.0E30",
                "limits.maxRows");
        assertRefused(
                Map.of("limits", Map.of("maxRows", "lots")),
                "field 'limits.maxRows' must be an integer between 0 and 9223372036854775807; got 'lots'",
                "limits.maxRows");
        assertRefused(
                Map.of("limits", Map.of("maxFraction", "half")),
                "field 'limits.maxFraction' must be a number between 0 and 1; got 'half'",
                "limits.maxFraction");
        assertRefused(
                Map.of("priority", "high"),
                "field 'priority' must be an integer between 0 and 9; got 'high'",
                "priority");
        assertRefused(
                Map.of("priority", 99_999_999_999L),
                "field 'priority' must be an integer between 0 and 9; got 99999999999",
                "priority");
        // not cut to 5
        assertRefused(
                Map.of("priority", 5.5), "field 'priority' must be an integer between 0 and 9; got 5.5", "priority");
        assertRefused(
                Map.of("spreadOver", "six hours"),
                "field 'spreadOver' must be an ISO-8601 duration between PT10S and P1D (e.g. PT6H), or absent;"
                        + " got 'six hours'",
                "spreadOver");
        // in range for the type, out of range for the field: the record's own refusal
        assertRefused(Map.of("priority", 99), "priority must be between 0 and 9, got 99", null);
        assertThat(specs.received).isEmpty();
    }

    @Test
    void aHugeValueOfTheWrongTypeIsQuotedCut() throws Exception {
        HttpResponse<String> response = post(spec(Map.of("spreadOver", "P".repeat(60_000))));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response))
                .startsWith("field 'spreadOver' must be an ISO-8601 duration")
                .contains("(59800 more)");
        assertThat(response.body()).hasSizeLessThan(1_000);
    }

    @Test
    void aQueryParameterOfTheWrongTypeNamesTheParameterAndItsType() throws Exception {
        HttpResponse<String> response = http().send(
                        HttpRequest.newBuilder(URI.create(base() + "/api/specs?limit=many"))
                                .header("Authorization", basic())
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(detail(response))
                .isEqualTo("parameter 'limit' must be an integer between -2147483648 and 2147483647;" + " got 'many'");
    }

    @Test
    void theMapperThatReadsEventsStillToleratesFieldsANewerProducerAdded() {
        assertThat(json.readValue("{\"maxRows\": 10, \"addedInANewerVersion\": true}", DeletionLimits.class))
                .isEqualTo(DeletionLimits.rows(10));
    }

    private void assertRefused(Map<String, Object> change, String detail, String field) throws Exception {
        HttpResponse<String> response = post(spec(change));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(detail(response)).isEqualTo(detail);
        assertThat(json.readTree(response.body()).path("field").asString(null)).isEqualTo(field);
    }

    private HttpResponse<String> post(String body) throws Exception {
        return http().send(
                        request()
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    // a fresh client per request: Tomcat closes the connection after a 400 or 413, and a POST is not retried on a
    // pooled connection that the server has closed meanwhile
    private static HttpClient http() {
        return HttpClient.newHttpClient();
    }

    private HttpRequest.Builder request() {
        return HttpRequest.newBuilder(URI.create(base() + "/api/specs"))
                .header("Content-Type", "application/json")
                .header("Authorization", basic())
                .header("X-Requested-By", "tests");
    }

    private String base() {
        return "http://localhost:" + port;
    }

    private static String basic() {
        return "Basic " + Base64.getEncoder().encodeToString("owner:owner".getBytes(StandardCharsets.UTF_8));
    }

    private String detail(HttpResponse<String> response) {
        return json.readTree(response.body()).path("detail").asString();
    }

    /** A valid dataset spec as JSON, with {@code change} put over its fields. */
    @SuppressWarnings("unchecked")
    private String spec(Map<String, Object> change) {
        Map<String, Object> spec = new LinkedHashMap<>(json.readValue("""
                {"name": "orders", "storeKind": "CASSANDRA", "connectionRef": "cassandra-main", "namespace": "shop",
                 "table": "orders", "keyColumns": {"partition": ["customer_id"]}, "identifierColumn": "customer_id",
                 "identifierSource": "customers", "conditionalColumn": {"type": "none"},
                 "backup": {"prefix": "backups/orders/", "format": "JSONL_GZIP"}, "limits": {"maxFraction": 0.05},
                 "priority": 5, "ownerTeam": "checkout"}""", Map.class));
        spec.putAll(change);
        return json.writeValueAsString(spec);
    }

    @SpringBootConfiguration
    // a web app without stores: service-support's test classpath also carries the Cassandra, JDBC and Flyway
    // auto-configurations (for the startup tests), which would wait for a node or a database that is not there
    @EnableAutoConfiguration(
            excludeName = {
                "org.springframework.boot.cassandra.autoconfigure.CassandraAutoConfiguration",
                "org.springframework.boot.cassandra.autoconfigure.health.CassandraHealthContributorAutoConfiguration",
                "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
                "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration"
            })
    @Import(Specs.class)
    static class App {}

    /** Keeps what it received, so a test can tell that a refused request reached nothing. */
    @RestController
    static class Specs {

        final List<DatasetSpec> received = new CopyOnWriteArrayList<>();

        @PostMapping("/api/specs")
        String receive(@RequestBody DatasetSpec spec) {
            received.add(spec);
            return "{}";
        }

        @GetMapping("/api/specs")
        List<DatasetSpec> list(@RequestParam(defaultValue = "10") int limit) {
            return received.subList(0, Math.min(limit, received.size()));
        }
    }
}
