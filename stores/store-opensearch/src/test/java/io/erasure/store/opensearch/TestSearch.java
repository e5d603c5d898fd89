package io.erasure.store.opensearch;

import io.erasure.infra.LocalEngines;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreConnection;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** The shared local OpenSearch node for this module's tests, and raw REST calls to set up and inspect indexes. */
final class TestSearch {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private TestSearch() {}

    static StoreAdapter open(Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(extra);
        settings.put("url", LocalEngines.openSearch().url());
        return new OpenSearchAdapterProvider().open(new StoreConnection("search-test", StoreKind.OPENSEARCH, settings));
    }

    /** Creates {@code index} with one shard, no replica and {@code properties} as its mapping. */
    static void createIndex(String index, String properties) {
        call(
                "PUT",
                "/" + index,
                "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0},"
                        + " \"mappings\": {\"properties\": " + properties + "}}");
    }

    /** Adds {@code indexes} to {@code alias}. */
    static void alias(String alias, String... indexes) {
        StringBuilder actions = new StringBuilder();
        for (String index : indexes) {
            actions.append(actions.isEmpty() ? "" : ", ")
                    .append("{\"add\": {\"index\": \"")
                    .append(index)
                    .append("\", \"alias\": \"")
                    .append(alias)
                    .append("\"}}");
        }
        call("POST", "/_aliases", "{\"actions\": [" + actions + "]}");
    }

    /** A {@code _bulk} of newline-delimited lines into {@code index}, refreshed; fails if any item failed. */
    static void bulk(String index, String lines) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(
                                    URI.create(LocalEngines.openSearch().url() + "/" + index + "/_bulk?refresh=true"))
                            .header("Content-Type", "application/x-ndjson")
                            .POST(HttpRequest.BodyPublishers.ofString(lines))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200 || response.body().contains("\"errors\":true")) {
                throw new IllegalStateException("bulk into " + index + " failed: " + response.body());
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode call(String method, String path, String body) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(
                            URI.create(LocalEngines.openSearch().url() + path))
                    .header("Content-Type", "application/json")
                    .method(
                            method,
                            body == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(body));
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json = RestCalls.JSON.readTree(response.body());
            if (response.statusCode() >= 300 && response.statusCode() != 404) {
                throw new IllegalStateException(
                        method + " " + path + " answered " + response.statusCode() + ": " + response.body());
            }
            return json;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String iso(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS).toString();
    }

    static DatasetSpec spec(String name, String table, CopyTarget.SearchIndex target, ConditionalColumn conditional) {
        List<String> columns = target.sourceColumns();
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.OPENSEARCH)
                .connectionRef("search-test")
                .namespace("search")
                .table(table)
                .keyColumns(KeyColumns.of(columns, List.of()))
                .identifierColumn(columns.get(0))
                .identifierSource("customers")
                .conditionalColumn(conditional)
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("search")
                .target(target)
                .build();
    }
}
