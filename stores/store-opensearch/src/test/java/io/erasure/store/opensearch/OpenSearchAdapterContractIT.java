package io.erasure.store.opensearch;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.tck.ContractTable;
import io.erasure.store.tck.StoreAdapterContractTest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import tools.jackson.databind.JsonNode;

/**
 * The SPI contract against a real OpenSearch node. A contract table is an index of its own whose documents have the
 * id of their row and the fields {@code id}, {@code payload}, {@code score} and {@code updated_at} (a date, the
 * dataset's TIMESTAMP conditional column, written with its microseconds). A search index keeps no TTLs and no write
 * times of its own: the TTL is ignored, and the write time is the conditional column.
 */
class OpenSearchAdapterContractIT extends StoreAdapterContractTest {

    private static final SearchContractTable TABLE = new SearchContractTable();
    private static StoreAdapter adapter;

    @BeforeAll
    static void open() {
        adapter = TestSearch.open(Map.of());
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Override
    protected StoreAdapter adapter() {
        return adapter;
    }

    @Override
    protected ContractTable table() {
        return TABLE;
    }

    static final class SearchContractTable implements ContractTable {

        @Override
        public DatasetSpec create(String table) {
            String index = "contract_" + table;
            TestSearch.createIndex(
                    index,
                    "{\"id\": {\"type\": \"long\"}, \"payload\": {\"type\": \"keyword\"},"
                            + " \"score\": {\"type\": \"integer\"}, \"updated_at\": {\"type\": \"date\"}}");
            return spec(table, index);
        }

        @Override
        public DatasetSpec missing(String table) {
            return spec(table, table);
        }

        @Override
        public void write(
                DatasetSpec spec, long id, String payload, int score, long writeTimeMicros, Integer ttlSeconds) {
            Map<String, Object> source = new LinkedHashMap<>();
            source.put("id", id);
            source.put("payload", payload);
            source.put("score", score);
            source.put("updated_at", TestSearch.iso(writeTimeMicros));
            TestSearch.call(
                    "PUT",
                    "/" + index(spec) + "/_doc/" + id + "?refresh=true",
                    RestCalls.JSON.writeValueAsString(source));
        }

        @Override
        public Optional<FixtureRow> read(DatasetSpec spec, long id) {
            JsonNode doc = TestSearch.call("GET", "/" + index(spec) + "/_doc/" + id, null);
            if (!doc.path("found").asBoolean(false)) {
                return Optional.empty();
            }
            JsonNode source = doc.path("_source");
            return Optional.of(new FixtureRow(
                    id,
                    source.path("payload").isNull()
                            ? null
                            : source.path("payload").asString(null),
                    source.path("score").asInt(),
                    Documents.micros(source.path("updated_at").asString()),
                    null));
        }

        /** Documents of the contract index with values a JSON round trip could bend, and field names no column has. */
        @Override
        public Optional<DatasetSpec> createForExtremeValues(String table) {
            return Optional.of(create(table));
        }

        @Override
        public void writeExtremeValues(DatasetSpec spec, long id, long writeTimeMicros) {
            String source = "{\"id\": " + id
                    + ", \"payload\": \"Zo\u00eb \u2211 \uD83D\uDE00 \\\"quoted\\\" \\\\ back\\nslash\","
                    + " \"score\": 7, \"updated_at\": \"" + TestSearch.iso(writeTimeMicros) + "\","
                    + " \"amount\": 12345678901234567.891, \"smallest\": " + Long.MIN_VALUE + ","
                    + " \"Display-Name.v2\": \"camel\", \"tags\": [\"a\", null, \"b\"],"
                    + " \"extra\": {\"deep\": [], \"none\": null, \"flag\": true, \"ratio\": 2.50}}";
            TestSearch.call("PUT", "/" + index(spec) + "/_doc/" + id + "?refresh=true", source);
        }

        /** Every source field as the node returns it, as JSON text. */
        @Override
        public Optional<Map<String, String>> readExactly(DatasetSpec spec, long id) {
            JsonNode doc = TestSearch.call("GET", "/" + index(spec) + "/_doc/" + id, null);
            if (!doc.path("found").asBoolean(false)) {
                return Optional.empty();
            }
            Map<String, String> fields = new LinkedHashMap<>();
            doc.path("_source")
                    .properties()
                    .forEach(e -> fields.put(e.getKey(), e.getValue().toString()));
            return Optional.of(fields);
        }

        private static String index(DatasetSpec spec) {
            return ((CopyTarget.SearchIndex) spec.target()).index();
        }

        private static DatasetSpec spec(String table, String index) {
            return TestSearch.spec(
                    table.replace('_', '-'),
                    table,
                    new CopyTarget.SearchIndex(index, "{id}", null, null),
                    ConditionalColumn.timestamp("updated_at"));
        }
    }
}
