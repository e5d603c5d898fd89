package io.erasure.store.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePace;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.StoreAdapter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A term-addressed copy is deleted by {@code _delete_by_query} tasks: only the documents the plan read go (a document
 * indexed for the row since, or re-indexed since, stays), the cluster paces the task at the throttle's rate and
 * follows its changes, and a halt cancels the running task.
 */
class DeleteByQueryIT {

    private static final AtomicInteger INDEXES = new AtomicInteger();
    private static final CutoffTimestamp CUTOFF =
            CutoffTimestamp.fromInstant(Instant.now().minusSeconds(60));
    private static final List<Map<String, Object>> MEMBER_1 = List.of(Map.of("member_id", 1L));
    private static StoreAdapter adapter;

    @BeforeAll
    static void open() {
        adapter = TestSearch.open(Map.of());
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Test
    void onlyTheDocumentsThePlanReadAreDeleted() {
        String index = index();
        bulk(index, 1, "a", 3);
        bulk(index, 2, "b", 1);
        DatasetSpec copy = copy(index);
        DeletePlan plan = adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, MEMBER_1));
        adapter.readRows(copy, MEMBER_1);
        // after the read for the log: a new document for the row, and one of its documents re-indexed
        TestSearch.call("PUT", "/" + index + "/_doc/a9?refresh=true", "{\"member_id\": 1}");
        TestSearch.call("PUT", "/" + index + "/_doc/a1?refresh=true", "{\"member_id\": 1, \"what\": \"again\"}");

        DeleteOutcome outcome = adapter.executeDelete(plan, DeletePace.UNPACED);

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(ids(index))
                .as("the term query alone would have taken a9 and a1, which the log does not hold")
                .containsExactlyInAnyOrder("a1", "a9", "b0");
        assertThat(noTaskRunning()).isTrue();
    }

    @Test
    void aTwinUnderACustomRoutingWithTheSameSequenceNumberInAnotherShardSurvives() {
        String index = "activity-dbq-" + INDEXES.incrementAndGet();
        TestSearch.call(
                "PUT",
                "/" + index,
                "{\"settings\": {\"number_of_shards\": 2, \"number_of_replicas\": 0},"
                        + " \"mappings\": {\"properties\": {\"member_id\": {\"type\": \"long\"}}}}");
        TestSearch.call("PUT", "/" + index + "/_doc/x?refresh=true", "{\"member_id\": 1}"); // _seq_no 0 of its shard
        DatasetSpec copy = copy(index);
        DeletePlan plan = adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, MEMBER_1));
        String routing = null;
        for (int r = 0; routing == null; r++) {
            if (shardOf(index, "org-" + r) != shardOf(index, "x")) {
                routing = "org-" + r;
            }
        }
        // after the read: the same id under a custom routing, the first write of the other shard, so _seq_no 0 too
        TestSearch.call("PUT", "/" + index + "/_doc/x?routing=" + routing + "&refresh=true", "{\"member_id\": 1}");

        DeleteOutcome outcome = adapter.executeDelete(plan, DeletePace.UNPACED);

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(TestSearch.call("GET", "/" + index + "/_doc/x", null)
                        .path("found")
                        .asBoolean())
                .as("the document read")
                .isFalse();
        assertThat(TestSearch.call("GET", "/" + index + "/_doc/x?routing=" + routing, null)
                        .path("_seq_no")
                        .asLong(-1))
                .as("its twin, written since, with the same id and sequence number")
                .isZero();
    }

    private static int shardOf(String index, String routing) {
        return TestSearch.call("GET", "/" + index + "/_search_shards?routing=" + routing, null)
                .path("shards")
                .path(0)
                .path(0)
                .path("shard")
                .asInt();
    }

    @Test
    void aRowOfMoreDocumentsThanOneTaskTakesIsDeletedWhole() {
        String index = index();
        bulk(index, 1, "a", 1_201);
        bulk(index, 2, "b", 2);
        DatasetSpec copy = copy(index);

        DeleteOutcome outcome = adapter.executeDelete(
                adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, MEMBER_1)), DeletePace.UNPACED);

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(ids(index)).containsExactlyInAnyOrder("b0", "b1");
    }

    @Test
    void theClusterPacesTheTaskAtTheThrottlesRateAndFollowsItsChanges() {
        String index = index();
        bulk(index, 1, "a", 12);
        DatasetSpec copy = copy(index);
        DeletePlan plan = adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, MEMBER_1));
        AtomicInteger rate = new AtomicInteger(1);
        Set<Double> seen = ConcurrentHashMap.newKeySet();

        CompletableFuture<DeleteOutcome> running =
                CompletableFuture.supplyAsync(() -> adapter.executeDelete(plan, DeletePace.of(rate::get, () -> false)));
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRates(seen).contains(1.0));
        rate.set(3); // the throttle raises the store's limit while the task runs
        await().atMost(Duration.ofSeconds(10)).until(() -> taskRates(seen).contains(3.0) || running.isDone());
        DeleteOutcome outcome = running.join();

        assertThat(seen)
                .as("the task ran at the throttle's rate, then at its new one")
                .contains(1.0, 3.0);
        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(ids(index)).isEmpty();
    }

    @Test
    void aHaltCancelsTheRunningTaskAndLeavesTheRestForTheNextPlan() {
        String index = index();
        bulk(index, 1, "a", 12);
        DatasetSpec copy = copy(index);
        DeletePlan plan = adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, MEMBER_1));
        AtomicBoolean halted = new AtomicBoolean();

        CompletableFuture<DeleteOutcome> running =
                CompletableFuture.supplyAsync(() -> adapter.executeDelete(plan, DeletePace.of(() -> 1, halted::get)));
        await().atMost(Duration.ofSeconds(10)).until(() -> ids(index).size() < 12);
        halted.set(true); // a kill switch
        assertThatThrownBy(running::join)
                .as("stopped part-way: the caller hands the batch back")
                .hasCauseInstanceOf(DeletePace.Halted.class);
        int left = ids(index).size();
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(5))
                .until(() -> ids(index).size() == left);

        assertThat(left).as("the cancelled task deleted no more").isPositive();
        assertThat(noTaskRunning()).isTrue();

        DeleteOutcome next = adapter.executeDelete(
                adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, MEMBER_1)), DeletePace.UNPACED);
        assertThat(next.deleted()).isEqualTo(1);
        assertThat(ids(index)).isEmpty();
    }

    /** The rates of the delete-by-query tasks running now, added to {@code seen}. */
    private static Set<Double> taskRates(Set<Double> seen) {
        JsonNode nodes = TestSearch.call("GET", "/_tasks?actions=*delete/byquery&detailed=true", null)
                .path("nodes");
        for (JsonNode node : nodes) {
            for (JsonNode task : node.path("tasks")) {
                seen.add(task.path("status").path("requests_per_second").asDouble());
            }
        }
        return seen;
    }

    private static boolean noTaskRunning() {
        return TestSearch.call("GET", "/_tasks?actions=*delete/byquery", null)
                .path("nodes")
                .isEmpty();
    }

    private static String index() {
        String index = "activity-dbq-" + INDEXES.incrementAndGet();
        TestSearch.createIndex(index, "{\"member_id\": {\"type\": \"long\"}, \"what\": {\"type\": \"keyword\"}}");
        return index;
    }

    private static void bulk(String index, long member, String prefix, int count) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < count; i++) {
            lines.append("{\"index\": {\"_id\": \"")
                    .append(prefix)
                    .append(i)
                    .append("\"}}\n{\"member_id\": ")
                    .append(member)
                    .append(", \"what\": \"login\"}\n");
        }
        TestSearch.bulk(index, lines.toString());
    }

    private static DatasetSpec copy(String index) {
        DatasetSpec spec = TestSearch.spec(
                index,
                "docs",
                new CopyTarget.SearchIndex(index, null, "member_id", "member_id"),
                ConditionalColumn.none());
        adapter.checkDataset(spec);
        return spec;
    }

    private static List<String> ids(String index) {
        TestSearch.call("POST", "/" + index + "/_refresh", null);
        return TestSearch.call("POST", "/" + index + "/_search?size=2000", "{\"query\": {\"match_all\": {}}}")
                .path("hits")
                .path("hits")
                .valueStream()
                .map(hit -> hit.path("_id").asString())
                .toList();
    }
}
