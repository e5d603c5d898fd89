package io.erasure.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The local OpenSearch node answers the calls a search-index copy is deleted with: a delete conditional on the
 * sequence number read (a document re-indexed since is not deleted), a throttled delete-by-query, a create that
 * never overwrites, and the node statistics the throttle reads.
 */
@ExtendWith(LocalEnginesExtension.class)
class OpenSearchEngineIT {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void conditionalDeletesThrottledDeleteByQueryAndNodeStats(OpenSearchEngine search) throws Exception {
        String index = "profiles_engine_it";
        assertThat(call(search, "PUT", "/" + index, "{\"settings\": {\"number_of_replicas\": 0}}")
                        .statusCode())
                .isEqualTo(200);
        for (int member = 1; member <= 3; member++) {
            HttpResponse<String> indexed = call(
                    search,
                    "PUT",
                    "/" + index + "/_doc/m-" + member + "?refresh=true",
                    "{\"member_id\": " + member + ", \"name\": \"member " + member + "\"}");
            assertThat(indexed.statusCode()).isEqualTo(201);
        }
        // re-indexed after a read that saw seq_no 0: the delete of what was read must not remove the newer one
        call(search, "PUT", "/" + index + "/_doc/m-1?refresh=true", "{\"member_id\": 1, \"name\": \"rewritten\"}");

        HttpResponse<String> stale =
                call(search, "DELETE", "/" + index + "/_doc/m-1?if_seq_no=0&if_primary_term=1", null);
        HttpResponse<String> current = call(search, "GET", "/" + index + "/_doc/m-1", null);
        assertThat(stale.statusCode()).isEqualTo(409);
        assertThat(current.body()).contains("\"found\":true", "rewritten");

        HttpResponse<String> byQuery = call(
                search,
                "POST",
                "/" + index + "/_delete_by_query?conflicts=proceed&refresh=true&requests_per_second=100",
                "{\"query\": {\"term\": {\"member_id\": 2}}}");
        assertThat(byQuery.statusCode()).isEqualTo(200);
        assertThat(byQuery.body()).contains("\"deleted\":1", "\"requests_per_second\":100.0");
        assertThat(call(search, "GET", "/" + index + "/_doc/m-2", null).statusCode())
                .isEqualTo(404);

        HttpResponse<String> create = call(
                search, "PUT", "/" + index + "/_doc/m-3?op_type=create", "{\"member_id\": 3, \"name\": \"restored\"}");
        assertThat(create.statusCode()).as("a restore never overwrites").isEqualTo(409);

        HttpResponse<String> stats = call(search, "GET", "/_nodes/stats/thread_pool,os,indices", null);
        assertThat(stats.body()).contains("\"write\":", "\"search\":", "\"rejected\":", "\"cpu\":", "\"deleted\":");
    }

    private HttpResponse<String> call(OpenSearchEngine search, String method, String path, String body)
            throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(search.url() + path)).header("Content-Type", "application/json");
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
