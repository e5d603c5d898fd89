package io.erasure.local.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The platform's REST API as one local user sees it (HTTP Basic), answers as JSON trees. */
public final class PlatformClient {

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final JsonMapper json;
    private final URI base;
    private final String authorization;

    public PlatformClient(JsonMapper json, URI base, String user, String password) {
        this.json = json;
        this.base = base;
        this.authorization =
                "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    public PlatformClient as(String user, String password) {
        return new PlatformClient(json, base, user, password);
    }

    public PlatformClient at(URI otherService) {
        return new PlatformClient(json, otherService, authorization);
    }

    private PlatformClient(JsonMapper json, URI base, String authorization) {
        this.json = json;
        this.base = base;
        this.authorization = authorization;
    }

    public Answer get(String path) {
        return send(request(path).GET());
    }

    /** POSTs {@code body} (any value Jackson can write, or null for none). */
    public Answer post(String path, Object body) {
        String text = body == null ? "" : json.writeValueAsString(body);
        return send(request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(text)));
    }

    public record Answer(int status, JsonNode body, String text) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }

        /** The body of a 2xx answer; anything else fails with the server's words. */
        public JsonNode require(String what) {
            if (!ok()) {
                throw new IllegalStateException(what + " failed: HTTP " + status + " " + text);
            }
            return body;
        }
    }

    /** PUTs {@code body} (any value Jackson can write). */
    public Answer put(String path, Object body) {
        return send(request(path)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body))));
    }

    private HttpRequest.Builder request(String path) {
        // X-Requested-By: the services refuse writes with Basic credentials without it (CrossSiteWriteGuard)
        return HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", authorization)
                .header("Accept", "application/json")
                .header("X-Requested-By", "erasure-local");
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String text = response.body();
            JsonNode body = text == null || text.isBlank() ? json.nullNode() : parse(text);
            return new Answer(response.statusCode(), body, text);
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach " + base + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private JsonNode parse(String text) {
        try {
            return json.readTree(text);
        } catch (RuntimeException notJson) {
            return json.getNodeFactory().textNode(text);
        }
    }
}
