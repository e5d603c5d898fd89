package io.erasure.store.opensearch.bench;

import io.erasure.infra.LocalEngines;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.opensearch.SearchBench;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePace;
import io.erasure.store.spi.StoreAdapter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Documents deleted per second by the OpenSearch adapter on the local node, addressed by id, by a term query
 * ({@code _delete_by_query} tasks, unpaced), and by a term query paced at {@code bench.paced} rows/s (default 2,000:
 * what the cluster's own pacing holds to). Each
 * round ({@code bench.rounds}, default 5) indexes {@code bench.docs} documents (default 20,000; two per key when
 * addressed by term) into a fresh index, then deletes them all through {@code planDelete} + {@code executeDelete} in
 * calls of 500 keys, one caller thread, and prints the rate; then the median and best per addressing. The time
 * includes the plan's read of every document ({@code _mget} or {@code _search}) and the refresh after each bulk.
 * Not a test: it asserts nothing and never runs in {@code verify}.
 *
 * <p>Run from the repository root (after {@code ./mvnw -B -q -o -pl stores/store-opensearch -am install -DskipTests}):
 * <pre>
 * ./mvnw -B -q -o -f stores/store-opensearch/pom.xml test-compile exec:java
 * </pre>
 */
public final class SearchDeleteBenchmark {

    private static final int KEYS_PER_CALL = 500;

    private SearchDeleteBenchmark() {}

    public static void main(String[] args) {
        int docs = Integer.getInteger("bench.docs", 20_000);
        int rounds = Integer.getInteger("bench.rounds", 5);
        StoreAdapter adapter = SearchBench.open(LocalEngines.openSearch().url());
        System.out.printf(
                Locale.ROOT,
                "OpenSearch delete benchmark: %,d documents per run, %,d keys per call, one caller%n",
                docs,
                KEYS_PER_CALL);
        run(adapter, "warmup-id", docs / 4, true, DeletePace.UNPACED); // JIT and connections, not printed
        int paced = Integer.getInteger("bench.paced", 2_000);
        DeletePace atRate = DeletePace.of(() -> paced, () -> false);
        record Way(String name, boolean byId, DeletePace pace) {}
        for (Way way : List.of(
                new Way("id", true, DeletePace.UNPACED),
                new Way("term (_delete_by_query)", false, DeletePace.UNPACED),
                new Way("term, paced at " + paced + "/s", false, atRate))) {
            List<Double> rates = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                double rate = run(adapter, "bench-" + rates.size() + "-" + round, docs, way.byId(), way.pace());
                rates.add(rate);
                System.out.printf(Locale.ROOT, "  by %s, round %d: %,.0f documents/s%n", way.name(), round, rate);
            }
            List<Double> sorted = rates.stream().sorted().toList();
            System.out.printf(
                    Locale.ROOT,
                    "by %s: median %,.0f documents/s, best %,.0f (%d rounds)%n",
                    way.name(),
                    sorted.get(sorted.size() / 2),
                    sorted.get(sorted.size() - 1),
                    rounds);
        }
        adapter.close();
        System.exit(0);
    }

    /** Indexes {@code docs} documents into a fresh index, deletes them all, and returns documents per second. */
    private static double run(StoreAdapter adapter, String index, int docs, boolean byId, DeletePace pace) {
        int perKey = byId ? 1 : 2;
        int keys = docs / perKey;
        SearchBench.createIndex(index, "{\"member_id\": {\"type\": \"long\"}, \"what\": {\"type\": \"keyword\"}}");
        StringBuilder bulk = new StringBuilder();
        for (int key = 0; key < keys; key++) {
            for (int copy = 0; copy < perKey; copy++) {
                bulk.append("{\"index\": {\"_id\": \"m-")
                        .append(key)
                        .append(byId ? "" : "-" + copy)
                        .append("\"}}\n{\"member_id\": ")
                        .append(key)
                        .append(", \"what\": \"profile of member ")
                        .append(key)
                        .append("\"}\n");
            }
            if (bulk.length() > 4_000_000 || key == keys - 1) {
                SearchBench.bulk(index, bulk.toString());
                bulk.setLength(0);
            }
        }
        CopyTarget.SearchIndex target = byId
                ? new CopyTarget.SearchIndex(index, "m-{member_id}", null, null)
                : new CopyTarget.SearchIndex(index, null, "member_id", null);
        DatasetSpec spec = SearchBench.spec(index, target, ConditionalColumn.none());
        adapter.checkDataset(spec);
        CutoffTimestamp cutoff = CutoffTimestamp.fromInstant(Instant.now());
        long deleted = 0;
        long started = System.nanoTime();
        for (int from = 0; from < keys; from += KEYS_PER_CALL) {
            List<Map<String, Object>> batch = new ArrayList<>();
            for (int key = from; key < Math.min(keys, from + KEYS_PER_CALL); key++) {
                batch.add(Map.of("member_id", (long) key));
            }
            DeleteOutcome outcome = adapter.executeDelete(
                    adapter.planDelete(new DeleteBatch(spec, "bench-" + from, cutoff, batch)), pace);
            deleted += (long) outcome.deleted() * perKey;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (deleted != docs) {
            throw new IllegalStateException("deleted " + deleted + " of " + docs + " documents");
        }
        SearchBench.deleteIndex(index);
        return docs / seconds;
    }
}
