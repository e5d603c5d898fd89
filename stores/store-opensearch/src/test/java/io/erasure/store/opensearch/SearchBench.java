package io.erasure.store.opensearch;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreConnection;
import java.util.Map;

/** What the benchmark (another package) needs of this module's test helpers. */
public final class SearchBench {

    private SearchBench() {}

    public static StoreAdapter open(String url) {
        return new OpenSearchAdapterProvider()
                .open(new StoreConnection("search-test", StoreKind.OPENSEARCH, Map.of("url", url)));
    }

    public static void createIndex(String index, String properties) {
        TestSearch.call("DELETE", "/" + index, null);
        TestSearch.createIndex(index, properties);
    }

    public static void bulk(String index, String lines) {
        TestSearch.bulk(index, lines);
    }

    public static void deleteIndex(String index) {
        TestSearch.call("DELETE", "/" + index, null);
    }

    public static DatasetSpec spec(String index, CopyTarget.SearchIndex target, ConditionalColumn conditional) {
        return TestSearch.spec(index, "bench", target, conditional);
    }
}
