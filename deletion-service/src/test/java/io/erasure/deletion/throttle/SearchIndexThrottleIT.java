package io.erasure.deletion.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.infra.LocalEngines;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The throttle against a real OpenSearch node: live searches slower than the connection's
 * {@code search-latency-limit-ms} read as a fully loaded cluster, and the throttle cuts the store's delete rate,
 * which a running {@code _delete_by_query} follows.
 */
class SearchIndexThrottleIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** Floor 10, cap 1000, step 10, cut by 0.5; starts at cap / 10 = 100 rows/s. */
    private final AdaptiveThrottle throttle = new AdaptiveThrottle(
            ThrottleProperties.of(1_000, 10, 10, 0.5), new ShardOwnership(), new SimpleMeterRegistry());

    @Test
    void slowLiveSearchesCutTheStoresDeleteRate() throws Exception {
        String url = LocalEngines.openSearch().url();
        call(url, "PUT", "/live-traffic", "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0}}");
        StringBuilder docs = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            docs.append("{\"index\": {}}\n{\"n\": ").append(i).append("}\n");
        }
        call(url, "POST", "/live-traffic/_bulk?refresh=true", docs.toString());
        try (StoreAdapter search = StoreAdapters.load()
                .open(new StoreConnection(
                        "search-main", StoreKind.OPENSEARCH, Map.of("url", url, "search-latency-limit-ms", "1")))) {
            search.loadSignal(); // the first reading sets where query times are counted from
            int before = throttle.limit("search-main");
            for (int i = 0; i < 20; i++) {
                // a query that scripts every document: what a heavy live search costs the cluster
                call(
                        url,
                        "POST",
                        "/live-traffic/_search?request_cache=false",
                        "{\"size\": 0, \"query\": {\"script\": {\"script\": {\"source\":"
                                + " \"Math.sqrt(doc['n'].value + " + i + ") > 3\"}}}}");
            }
            LoadSignal loaded = search.loadSignal();
            throttle.adjust(store -> loaded);

            assertThat(loaded.parts().get("search_latency"))
                    .as("mean query time over 1 ms")
                    .isGreaterThanOrEqualTo(1.0);
            assertThat(loaded.utilization()).isEqualTo(1.0);
            assertThat(throttle.limit("search-main")).as("cut by half").isEqualTo(before / 2);
        }
    }

    private static void call(String url, String method, String path, String body) throws Exception {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(url + path))
                        .header("Content-Type", path.contains("_bulk") ? "application/x-ndjson" : "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as(method + " " + path + ": " + response.body())
                .isLessThan(300);
    }
}
