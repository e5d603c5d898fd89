package io.erasure.store.opensearch;

import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The cluster's load from its node statistics ({@code _nodes/stats/os,thread_pool,indices/search}), the busiest node
 * counting: CPU; write and search queues against {@code queue-limit}; any rejection since the last reading (1: the
 * cluster is already shedding load); and the mean query time since the last reading against
 * {@code search-latency-limit-ms}, what live searches feel. Thread-safe.
 */
final class ClusterLoad {

    private final RestCalls rest;
    private final OpenSearchSettings settings;
    private final Clock clock;
    private Map<String, long[]> previous = Map.of(); // node -> [rejected, query total, query millis]

    ClusterLoad(RestCalls rest, OpenSearchSettings settings, Clock clock) {
        this.rest = rest;
        this.settings = settings;
        this.clock = clock;
    }

    synchronized LoadSignal read() {
        RestCalls.Answer answer = rest.get("/_nodes/stats/os,thread_pool,indices/search");
        if (!answer.ok()) {
            throw new StoreException.Retriable(
                    "node statistics of connection '" + settings.ref() + "' answered " + answer.status(), null);
        }
        double cpu = 0;
        double queues = 0;
        double rejections = 0;
        double latency = 0;
        Map<String, long[]> now = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> node : answer.body().path("nodes").properties()) {
            JsonNode stats = node.getValue();
            cpu = Math.max(cpu, stats.path("os").path("cpu").path("percent").asDouble() / 100.0);
            JsonNode pools = stats.path("thread_pool");
            long rejected = 0;
            for (String pool : new String[] {"write", "search"}) {
                queues = Math.max(queues, pools.path(pool).path("queue").asDouble() / settings.queueLimit());
                rejected += pools.path(pool).path("rejected").asLong();
            }
            JsonNode search = stats.path("indices").path("search");
            long queries = search.path("query_total").asLong();
            long millis = search.path("query_time_in_millis").asLong();
            now.put(node.getKey(), new long[] {rejected, queries, millis});
            long[] before = previous.get(node.getKey());
            if (before != null) {
                if (rejected > before[0]) {
                    rejections = 1;
                }
                long newQueries = queries - before[1];
                if (newQueries > 0) {
                    latency = Math.max(
                            latency, (double) (millis - before[2]) / newQueries / settings.searchLatencyLimitMs());
                }
            }
        }
        previous = now;
        Map<String, Double> parts = new LinkedHashMap<>();
        parts.put("cpu", cpu);
        parts.put("queues", queues);
        parts.put("rejections", rejections);
        parts.put("search_latency", latency);
        Instant at = clock.instant();
        return LoadSignal.of(parts, at);
    }
}
