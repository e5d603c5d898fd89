package io.erasure.store.opensearch;

import io.erasure.store.spi.StoreException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The cluster's REST API over the JDK's HTTP client: a call and its JSON answer. A connection that fails, a timeout,
 * a 429 (rejected, queue full) or a 5xx is {@link StoreException.Retriable}; 401 and 403 are
 * {@link StoreException.Fatal} (credentials or permissions will not fix themselves). Other statuses are returned for
 * the caller to read (404 for a missing index, 409 for a version conflict). Numbers are read exactly
 * ({@code BigDecimal}, {@code BigInteger}), so a document's source goes back as it came. Thread-safe.
 */
final class RestCalls {

    /** An answer: its status and its body as JSON (an empty object for an empty body). */
    record Answer(int status, JsonNode body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .build();

    private final OpenSearchSettings settings;
    private final HttpClient http;
    private final @Nullable String authorization;

    RestCalls(OpenSearchSettings settings) {
        this.settings = settings;
        this.http = HttpClient.newBuilder()
                .connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.authorization = settings.username() == null
                ? null
                : "Basic "
                        + Base64.getEncoder()
                                .encodeToString((settings.username() + ":" + settings.password())
                                        .getBytes(StandardCharsets.UTF_8));
    }

    Answer get(String path) {
        return call("GET", path, null, "application/json");
    }

    Answer post(String path, Object body) {
        return call("POST", path, JSON.writeValueAsString(body), "application/json");
    }

    /** A {@code _bulk} call: {@code lines} is newline-delimited JSON, ending with a newline. */
    Answer bulk(String path, String lines) {
        return call("POST", path, lines, "application/x-ndjson");
    }

    static String encode(String pathSegment) {
        return URLEncoder.encode(pathSegment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private Answer call(String method, String path, @Nullable String body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(settings.url() + path))
                .timeout(settings.timeout())
                .header("Accept", "application/json")
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", contentType);
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        String what = method + " " + path.replaceAll("\\?.*", "") + " on connection '" + settings.ref() + "' ("
                + settings.url() + ")";
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new StoreException.Retriable(what + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException.Retriable(what + " interrupted", e);
        }
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            throw new StoreException.Fatal(what + " was refused (" + status + "): check the connection's username and"
                    + " password and the role's index permissions; " + reason(response.body()));
        }
        if (status == 429 || status >= 500) {
            throw new StoreException.Retriable(what + " answered " + status + ": " + reason(response.body()), null);
        }
        JsonNode json;
        try {
            json = response.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(response.body());
        } catch (RuntimeException e) {
            throw new StoreException.Retriable(what + " answered " + status + " with a body that is not JSON", e);
        }
        return new Answer(status, json);
    }

    /** The error's reason from an OpenSearch error body, or the start of the body. */
    static String reason(String body) {
        try {
            JsonNode json = JSON.readTree(body);
            JsonNode reason = json.path("error").path("reason");
            return reason.isMissingNode() ? json.toString() : reason.asString();
        } catch (RuntimeException e) {
            return body.length() > 200 ? body.substring(0, 200) + "…" : body;
        }
    }
}
