package io.erasure.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

/**
 * The control plane's API reads bounded, validated input (issue 18, items 7 and 8): a body over 1MB is 413 from
 * its length alone, an unknown field is refused naming it, every list has a bound named in the refusal, a number
 * that does not fit names the field and its range, no refusal echoes a large value, and nothing refused is stored.
 */
class BoundedInputIT extends ControlPlaneTestSupport {

    @Test
    void aFiveMegabyteUnknownFieldIs413FromItsLengthAndNothingIsStored() throws Exception {
        Map<String, Object> body = validBody();
        body.put("notes", "x".repeat(5_000_000));
        byte[] bytes = json.writeValueAsBytes(body);

        // the headers and the first 64KB: the answer must come from Content-Length, before the rest is sent
        String response = rawPost("/api/datasets", bytes.length, Arrays.copyOf(bytes, 65_536));

        assertThat(response).startsWith("HTTP/1.1 413");
        String problem = response.substring(response.indexOf("\r\n\r\n") + 4);
        assertThat(json.readTree(problem).path("detail").asString())
                .contains("larger than 1048576 bytes", "erasure.http.max-request-body");
        assertThat(problem).hasSizeLessThan(1_000);
        assertNotStored(body);
    }

    @Test
    void aChunkedMultipartUploadOverTheLimitIsRefusedWith413() throws Exception {
        // no Content-Length: the multipart resolver reads it, not the filter's counted stream; each part is under the
        // resolver's own 1MB default per file, the whole is 2.7MB (under its 10MB default per request)
        String boundary = "erasure-test-boundary";
        StringBuilder body = new StringBuilder();
        for (String name : List.of("receipt", "extra-1", "extra-2")) {
            body.append("--")
                    .append(boundary)
                    .append("\r\nContent-Disposition: form-data; name=\"")
                    .append(name)
                    .append("\"; filename=\"")
                    .append(name)
                    .append(".json\"\r\nContent-Type: application/json\r\n\r\n")
                    .append("x".repeat(900_000))
                    .append("\r\n");
        }
        body.append("--")
                .append(boundary)
                .append("\r\nContent-Disposition: form-data; name=\"signature\"; filename=\"s\"")
                .append("\r\n\r\n")
                .append("0".repeat(64))
                .append("\r\n--")
                .append(boundary)
                .append("--\r\n");
        byte[] part = body.toString().getBytes(StandardCharsets.US_ASCII);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/receipts/verify"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .header(
                        "Authorization",
                        "Basic " + Base64.getEncoder().encodeToString("viewer:viewer".getBytes(StandardCharsets.UTF_8)))
                .header("X-Requested-By", "tests")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(part)))
                .build();

        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(413);
        assertThat(response.body()).contains("erasure.http.max-request-body").hasSizeLessThan(1_000);
    }

    @Test
    void anUnknownFieldUnderTheLimitIsRefusedNamingItWithoutEchoingItsValue() {
        Map<String, Object> body = validBody();
        body.put("notes", "x".repeat(900_000));

        String detail = refused(body);

        assertThat(detail)
                .startsWith("field 'notes' is not known: DatasetSpec has backup, conditionalColumn,")
                .contains("unknown fields are refused");
        assertThat(detail).hasSizeLessThan(600);
        assertNotStored(body);

        Map<String, Object> nested = validBody();
        nested.put("limits", Map.of("maxRows", 100, "maxFractoin", 0.01));
        assertThat(refused(nested))
                .startsWith("field 'limits.maxFractoin' is not known: DeletionLimits has maxFraction, maxRows");
        assertNotStored(nested);
    }

    @Test
    void tenThousandKeyColumnsAndThirtyThreeCopiesAreRefusedNamingTheBound() {
        Map<String, Object> wideKey = validBody();
        wideKey.put(
                "keyColumns",
                Map.of(
                        "partition",
                        IntStream.range(0, 10_000).mapToObj(i -> "c" + i).toList()));
        assertThat(refused(wideKey)).isEqualTo("keyColumns.partition has 10000 elements; at most 32 are allowed");
        assertNotStored(wideKey);

        Map<String, Object> copies = validBody();
        copies.put(
                "copies",
                IntStream.range(0, 33)
                        .mapToObj(i -> asMap(new DatasetCopy(
                                "cache-" + i,
                                StoreKind.REDIS,
                                "redis-main",
                                new CopyTarget.KeyTemplate("profile:{customer_id}"))))
                        .toList());
        assertThat(refused(copies)).isEqualTo("copies has 33 elements; at most 32 are allowed");
        assertNotStored(copies);
    }

    @Test
    void numbersThatDoNotFitNameTheFieldItsRangeAndTheValueNestedOrNot() {
        Map<String, Object> huge = validBody();
        huge.put("limits", Map.of("maxRows", "HUGE"));
        // 1e30 as written: a JSON number no long holds
        String maxRows = json.writeValueAsString(huge).replace("\"HUGE\"", "1e30");
        assertThat(maxRows).contains("1e30");
        assertThat(refusedRaw(maxRows))
                .isEqualTo("field 'limits.maxRows' must be an integer between 0 and 9223372036854775807; got 1e30");

        Map<String, Object> high = validBody();
        high.put("priority", "high");
        assertThat(refused(high)).isEqualTo("field 'priority' must be an integer between 0 and 9; got 'high'");
        high.put("priority", 99);
        assertThat(refused(high)).isEqualTo("priority must be between 0 and 9, got 99");
        high.put("priority", 7.5);
        assertThat(refused(high))
                .as("not cut to 7")
                .isEqualTo("field 'priority' must be an integer between 0 and 9; got 7.5");
        assertNotStored(high);

        Map<String, Object> source = asMap(source(unique("src")));
        source.put("gracePeriod", "three days");
        as("operator")
                .post()
                .uri("/api/identifier-sources")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(source))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.detail")
                .isEqualTo("field 'gracePeriod' must be an ISO-8601 duration of at least"
                        + " PT0S, e.g. PT72H; got 'three days'")
                .jsonPath("$.field")
                .isEqualTo("gracePeriod");
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM identifier_sources WHERE name = ?", Integer.class, source.get("name")))
                .isZero();

        as("viewer")
                .get()
                .uri("/api/runs?limit=lots")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.detail")
                .isEqualTo("parameter 'limit' must be an integer between -2147483648 and 2147483647; got 'lots'");
    }

    @Test
    void aForwardRequestBoundsItsChildIdsAndNamesItsVersionsRange() {
        String source = unique("src");
        as("operator")
                .post()
                .uri("/api/identifier-sources")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(source(source)))
                .exchange()
                .expectStatus()
                .isCreated();
        Map<String, Object> request = new LinkedHashMap<>(Map.of(
                "aggregateType",
                source,
                "aggregateId",
                "c-1",
                "version",
                1,
                "childIds",
                Map.of(
                        source,
                        IntStream.range(0, 10_001).mapToObj(i -> "o-" + i).toList())));

        as("publisher")
                .post()
                .uri("/api/forward-requests")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(request))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.detail")
                .isEqualTo("childIds." + source + " has 10001 elements; at most 10000" + " are allowed");
        request.put("childIds", Map.of());
        request.put("version", "first");
        as("publisher")
                .post()
                .uri("/api/forward-requests")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(request))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.detail")
                .isEqualTo("field 'version' must be an integer between 1 and 9223372036854775807; got 'first'");
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM deletion_requests WHERE aggregate_type = ?", Integer.class, source))
                .isZero();
    }

    @Test
    void aForwardPolicyBoundsItsClearColumns() {
        DatasetSpec spec = registerDataset();

        as("owner")
                .put()
                .uri("/api/datasets/" + spec.name() + "/forward-policy")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(Map.of(
                        "action",
                        "ANONYMISE",
                        "clearColumns",
                        IntStream.range(0, 257).mapToObj(i -> "c" + i).toList())))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.detail")
                .isEqualTo("clearColumns has 257 elements; at most 256 are allowed");
    }

    // --- helpers

    /** A valid registration of a fresh dataset on a fresh identifier source, as a mutable JSON map. */
    private Map<String, Object> validBody() {
        String source = unique("src");
        as("operator")
                .post()
                .uri("/api/identifier-sources")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(source(source)))
                .exchange()
                .expectStatus()
                .isCreated();
        return new LinkedHashMap<>(asMap(dataset(unique("ds"), source).build()));
    }

    private String refused(Map<String, Object> body) {
        return refusedRaw(json.writeValueAsString(body));
    }

    /** The detail of the 400 a registration of {@code body} gets, after checking that the whole answer is short. */
    private String refusedRaw(String body) {
        RestTestClient.ResponseSpec response = as("owner")
                .post()
                .uri("/api/datasets")
                .contentType(MediaType.APPLICATION_JSON)
                .body(body)
                .exchange();
        String problem = response.expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        assertThat(problem).hasSizeLessThan(1_000);
        return json.readTree(problem).path("detail").asString();
    }

    private void assertNotStored(Map<String, Object> body) {
        assertThat(jdbc.queryForObject("SELECT count(*) FROM datasets WHERE name = ?", Integer.class, body.get("name")))
                .isZero();
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM actions_log WHERE subject = ?",
                        Integer.class,
                        "dataset:" + body.get("name")))
                .isZero();
    }

    /** A POST that declares {@code contentLength} and sends only {@code start}; the answer as text. */
    private String rawPost(String path, int contentLength, byte[] start) throws Exception {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(15_000);
            String basic = Base64.getEncoder().encodeToString("owner:owner".getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream()
                    .write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                                    + "Content-Type: application/json\r\nContent-Length: " + contentLength + "\r\n"
                                    + "Authorization: Basic " + basic + "\r\nX-Requested-By: tests\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(start);
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            // a problem document ends with '}'
            while (!out.toString(StandardCharsets.UTF_8).trim().endsWith("}")) {
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                out.write(buffer, 0, n);
            }
            return out.toString(StandardCharsets.UTF_8);
        }
    }
}
