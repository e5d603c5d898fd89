package io.erasure.store.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.PurgeStatus;
import io.erasure.store.spi.PurgeTracking;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A search index addressed by a term query, as a copy (no conditional column): every document of a row goes, none
 * of another row's; a document re-indexed between the plan and the delete is kept; restores put the documents back
 * under their ids and never over a newer one. And what {@code checkDataset} refuses before anything is read.
 */
class SearchIndexIT {

    private static final AtomicInteger INDEXES = new AtomicInteger();
    private static final CutoffTimestamp CUTOFF =
            CutoffTimestamp.fromInstant(Instant.now().minusSeconds(60));
    private static StoreAdapter adapter;

    @BeforeAll
    static void open() {
        adapter = TestSearch.open(Map.of("index-prefixes", "activity,profiles"));
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Test
    void aTermAddressedRowLosesEveryDocumentAndOnlyThoseUnchangedSinceThePlan() {
        String index = "activity-" + INDEXES.incrementAndGet();
        TestSearch.createIndex(
                index,
                "{\"actor\": {\"properties\": {\"member_id\": {\"type\": \"long\"}}},"
                        + " \"what\": {\"type\": \"keyword\"}}");
        index(index, "a1", 1, "login");
        index(index, "a2", 1, "search");
        index(index, "a3", 1, "logout");
        index(index, "b1", 2, "login");
        DatasetSpec copy = spec(index, new CopyTarget.SearchIndex(index, null, "actor.member_id", "member_id"));
        adapter.checkDataset(copy);
        List<Map<String, Object>> member1 = List.of(Map.of("member_id", 1L));

        DeletePlan plan = adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, member1));
        List<LiveRow> logged = adapter.readRows(copy, member1);
        index(index, "a3", 1, "re-indexed after the plan");
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(plan.statements()).hasSize(3);
        assertThat(logged)
                .as("one row per key, as the log keeps one record per key")
                .hasSize(1);
        assertThat(logged.get(0).columns()).singleElement().satisfies(column -> {
            assertThat(column.name()).isEqualTo(OpenSearchAdapter.DOCUMENTS);
            assertThat((List<?>) column.value()).as("every document of the row").hasSize(3);
        });
        assertThat(outcome.deleted()).as("two of its documents went").isEqualTo(1);
        assertThat(ids(index))
                .as("the document changed since the plan is kept; the read-back finds it")
                .containsExactlyInAnyOrder("a3", "b1");
        assertThat(adapter.checkLiveState(copy, member1).get(0).present()).isTrue();

        DeleteOutcome again =
                adapter.executeDelete(adapter.planDelete(new DeleteBatch(copy, "batch-2", CUTOFF, member1)));
        assertThat(again.deleted()).isEqualTo(1);
        assertThat(ids(index)).containsExactly("b1");

        List<DeletionRecord> records = records(copy, logged);
        RestoreOutcome restored = adapter.restore(copy, records);
        assertThat(restored.records())
                .extracting(RestoreOutcome.RecordOutcome::status)
                .containsOnly(RestoreOutcome.Status.RESTORED);
        assertThat(ids(index)).containsExactlyInAnyOrder("a1", "a2", "a3", "b1");
        assertThat(TestSearch.call("GET", "/" + index + "/_doc/a2", null)
                        .path("_source")
                        .path("what")
                        .asString())
                .isEqualTo("search");
        assertThat(TestSearch.call("GET", "/" + index + "/_doc/a2", null)
                        .path("_source")
                        .has(OpenSearchAdapter.ID))
                .as("the id column is not written into the source")
                .isFalse();
        assertThat(adapter.restore(copy, records).records())
                .extracting(RestoreOutcome.RecordOutcome::status)
                .containsOnly(RestoreOutcome.Status.NEWER_DATA_KEPT);
    }

    @Test
    void deletedDocumentsStayInTheSegmentsUntilAMergeExpungesThem() {
        String index = "activity-" + INDEXES.incrementAndGet();
        TestSearch.createIndex(index, "{\"actor\": {\"properties\": {\"member_id\": {\"type\": \"long\"}}}}");
        for (int doc = 1; doc <= 5; doc++) {
            index(index, "d" + doc, doc, "login");
        }
        DatasetSpec copy = spec(index, new CopyTarget.SearchIndex(index, null, "actor.member_id", "member_id"));
        adapter.checkDataset(copy);
        PurgeTracking purges = (PurgeTracking) adapter;
        Instant deletedAt = Instant.now();

        adapter.executeDelete(adapter.planDelete(
                new DeleteBatch(copy, "batch-1", CUTOFF, List.of(Map.of("member_id", 1L), Map.of("member_id", 2L)))));
        PurgeStatus onDisk = purges.purgeStatus(copy, deletedAt);
        // soft-deleted documents are kept for replicas' recovery while their retention lease holds (12 h by
        // default): a lease of a second lets the merge expunge them here
        TestSearch.call("PUT", "/" + index + "/_settings", "{\"index.soft_deletes.retention_lease.period\": \"1s\"}");
        assertThat(purges.expungeDeleted(copy))
                .as("the connection does not allow it: merges are the cluster's own")
                .isEmpty();
        PurgeTracking expunging = (PurgeTracking) TestSearch.open(Map.of("expunge-deletes", "true"));
        PurgeStatus merged = await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(2))
                .until(
                        () -> {
                            expunging.expungeDeleted(copy);
                            return purges.purgeStatus(copy, deletedAt);
                        },
                        status -> !status.stillOnDisk());

        assertThat(onDisk.stillOnDisk()).isTrue();
        assertThat(onDisk.tombstonesOnDisk())
                .as("each delete leaves the document and a delete marker, both soft-deleted")
                .isGreaterThanOrEqualTo(2);
        assertThat(onDisk.explanation()).contains("_forcemerge?only_expunge_deletes=true");
        assertThat(onDisk.gcGrace())
                .as("merges keep soft-deleted documents for the retention lease, 12 h unless set")
                .isEqualTo(Duration.ofHours(12));
        assertThat(onDisk.purgeableAt()).isEqualTo(deletedAt.plus(Duration.ofHours(12)));
        assertThat(merged.gcGrace()).isEqualTo(Duration.ofSeconds(1));
        assertThat(merged.stillOnDisk()).as("after the merge").isFalse();
        assertThat(merged.tombstonesOnDisk()).isZero();
    }

    @Test
    void anAliasOfSeveralIndexesLosesTheRowsDocumentsInEachAndGetsThemBackThere() {
        String older = "activity-" + INDEXES.incrementAndGet();
        String newer = "activity-" + INDEXES.incrementAndGet();
        String alias = "activity-all-" + INDEXES.incrementAndGet();
        for (String index : List.of(older, newer)) {
            TestSearch.createIndex(index, "{\"actor\": {\"properties\": {\"member_id\": {\"type\": \"long\"}}}}");
        }
        TestSearch.alias(alias, older, newer);
        index(older, "o1", 1, "login");
        index(newer, "n1", 1, "search");
        index(newer, "n2", 2, "login");
        DatasetSpec copy = spec(alias, new CopyTarget.SearchIndex(alias, null, "actor.member_id", "member_id"));
        adapter.checkDataset(copy);
        List<Map<String, Object>> member1 = List.of(Map.of("member_id", 1L));
        List<DeletionRecord> records = records(copy, adapter.readRows(copy, member1));

        DeleteOutcome outcome =
                adapter.executeDelete(adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, member1)));
        RestoreOutcome restored = adapter.restore(copy, records);

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(restored.records())
                .extracting(RestoreOutcome.RecordOutcome::status)
                .containsOnly(RestoreOutcome.Status.RESTORED);
        assertThat(ids(older)).as("back in the index it was read from").containsExactly("o1");
        assertThat(ids(newer)).containsExactlyInAnyOrder("n1", "n2");
    }

    @Test
    void anIndexWithoutSourceJoiningTheAliasLaterStopsTheBatchAndARecordWritesOnlyBehindTheTarget() {
        String first = "activity-" + INDEXES.incrementAndGet();
        String alias = "activity-all-" + INDEXES.incrementAndGet();
        TestSearch.createIndex(first, "{\"member_id\": {\"type\": \"long\"}}");
        TestSearch.alias(alias, first);
        TestSearch.call("PUT", "/" + first + "/_doc/kept?refresh=true", "{\"member_id\": 1}");
        DatasetSpec copy = spec(alias, new CopyTarget.SearchIndex(alias, null, "member_id", null));
        adapter.checkDataset(copy);
        List<Map<String, Object>> member1 = List.of(Map.of("member_id", 1L));
        List<DeletionRecord> records = records(copy, adapter.readRows(copy, member1));
        // a rollover adds an index that keeps no _source, after the dataset was checked
        String sourceless = "activity-" + INDEXES.incrementAndGet();
        TestSearch.call(
                "PUT",
                "/" + sourceless,
                "{\"settings\": {\"number_of_replicas\": 0}, \"mappings\": {\"_source\": {\"enabled\": false},"
                        + " \"properties\": {\"member_id\": {\"type\": \"long\"}}}}");
        TestSearch.alias(alias, sourceless);
        TestSearch.call("PUT", "/" + sourceless + "/_doc/unlogged?refresh=true", "{\"member_id\": 1}");

        assertThatThrownBy(() -> adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, member1)))
                .as("every plan checks the indexes behind the alias again")
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("does not keep its documents' whole _source");
        assertThatThrownBy(() -> adapter.readRows(copy, member1))
                .as("and a read for the log refuses a document it cannot log")
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("without its _source");
        assertThat(ids(sourceless)).containsExactly("unlogged");

        // a record naming an index the target does not name (moved, or altered) is restored into the target
        String elsewhere = "activity-" + INDEXES.incrementAndGet();
        TestSearch.createIndex(elsewhere, "{\"member_id\": {\"type\": \"long\"}}");
        TestSearch.call("DELETE", "/" + first + "/_doc/kept?refresh=true", null);
        DeletionRecord logged = records.get(0);
        List<Map<String, Object>> moved = List.of(Map.of(
                OpenSearchAdapter.INDEX,
                elsewhere,
                OpenSearchAdapter.ID,
                "kept",
                OpenSearchAdapter.SOURCE,
                Map.of("member_id", 1)));
        DeletionRecord altered = new DeletionRecord(
                logged.recordId(),
                logged.dataset(),
                logged.primaryKey(),
                List.of(ColumnValue.of(OpenSearchAdapter.DOCUMENTS, moved)),
                logged.cutoff(),
                logged.runId(),
                logged.requestId(),
                logged.taskId(),
                logged.batchId(),
                logged.deletedAt(),
                logged.retainedRef(),
                logged.anonymised(),
                logged.keptNewer());
        DatasetSpec direct = spec(first, new CopyTarget.SearchIndex(first, null, "member_id", null));

        assertThat(adapter.restore(direct, List.of(altered)).records())
                .extracting(RestoreOutcome.RecordOutcome::status)
                .containsExactly(RestoreOutcome.Status.RESTORED);
        assertThat(ids(elsewhere)).as("nothing written outside the target").isEmpty();
        assertThat(ids(first)).containsExactly("kept");
    }

    @Test
    void aDocumentOfSeveralRowsIsNeitherDeletedForOneOfThemNorReportedGone() {
        String index = "activity-" + INDEXES.incrementAndGet();
        TestSearch.createIndex(index, "{\"members\": {\"type\": \"long\"}}");
        TestSearch.call("PUT", "/" + index + "/_doc/chat?refresh=true", "{\"members\": [1, 2]}");
        TestSearch.call("PUT", "/" + index + "/_doc/solo?refresh=true", "{\"members\": 1}");
        DatasetSpec copy = spec(index, new CopyTarget.SearchIndex(index, null, "members", "member_id"));
        adapter.checkDataset(copy);

        assertThatThrownBy(() ->
                        adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, List.of(Map.of("member_id", 1L)))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("document chat")
                .hasMessageContaining("more than one row");
        assertThat(ids(index)).containsExactlyInAnyOrder("chat", "solo");

        String coerced = "activity-" + INDEXES.incrementAndGet();
        TestSearch.createIndex(coerced, "{\"member_id\": {\"type\": \"long\"}}");
        TestSearch.call("PUT", "/" + coerced + "/_doc/text?refresh=true", "{\"member_id\": \"042\"}");
        DatasetSpec texts = spec(coerced, new CopyTarget.SearchIndex(coerced, null, "member_id", null));
        adapter.checkDataset(texts);
        assertThatThrownBy(() -> adapter.planDelete(
                        new DeleteBatch(texts, "batch-2", CUTOFF, List.of(Map.of("member_id", 42L)))))
                .as("matched by the query as 42, held as \"042\": its row cannot be told")
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("equal to none of the batch's keys");
        assertThatThrownBy(() -> adapter.checkLiveState(texts, List.of(Map.of("member_id", 42L))))
                .as("nor is the row read back as gone")
                .isInstanceOf(StoreException.Fatal.class);
        assertThat(ids(coerced)).containsExactly("text");
    }

    @Test
    void datasetsTheAdapterCannotServeSafelyAreRefusedBeforeAnythingIsRead() {
        String index = "profiles-" + INDEXES.incrementAndGet();
        TestSearch.createIndex(index, "{\"member_id\": {\"type\": \"text\"}, \"seen\": {\"type\": \"keyword\"}}");
        String other = "profiles-" + INDEXES.incrementAndGet();
        TestSearch.createIndex(other, "{\"member_id\": {\"type\": \"long\"}}");
        String alias = "profiles-alias-" + INDEXES.incrementAndGet();
        TestSearch.alias(alias, index, other);

        assertThatThrownBy(() ->
                        adapter.checkDataset(spec(index, new CopyTarget.SearchIndex(index, null, "member_id", null))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("member_id")
                .hasMessageContaining("mapped as text");
        assertThatThrownBy(() -> adapter.checkDataset(
                        spec(alias, new CopyTarget.SearchIndex(alias, "m-{member_id}", null, null))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("names 2 indexes");
        assertThatThrownBy(() -> adapter.checkDataset(TestSearch.spec(
                        "seen-dataset",
                        "seen",
                        new CopyTarget.SearchIndex(other, "m-{member_id}", null, null),
                        ConditionalColumn.timestamp("seen"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("conditional column seen");
        String sourceless = "profiles-" + INDEXES.incrementAndGet();
        TestSearch.call(
                "PUT",
                "/" + sourceless,
                "{\"settings\": {\"number_of_replicas\": 0}, \"mappings\": {\"_source\": {\"enabled\": false},"
                        + " \"properties\": {\"member_id\": {\"type\": \"long\"}}}}");
        assertThatThrownBy(() -> adapter.checkDataset(
                        spec(sourceless, new CopyTarget.SearchIndex(sourceless, "m-{member_id}", null, null))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("_source");
        String nested = "profiles-" + INDEXES.incrementAndGet();
        TestSearch.createIndex(
                nested,
                "{\"actor\": {\"type\": \"nested\", \"properties\": {\"member_id\":" + " {\"type\": \"long\"}}}}");
        assertThatThrownBy(() -> adapter.checkDataset(
                        spec(nested, new CopyTarget.SearchIndex(nested, null, "actor.member_id", "member_id"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("nested");
        String filtered = "profiles-filtered-" + INDEXES.incrementAndGet();
        TestSearch.call(
                "POST",
                "/_aliases",
                "{\"actions\": [{\"add\": {\"index\": \"" + other + "\", \"alias\": \"" + filtered
                        + "\", \"filter\": {\"term\": {\"member_id\": 1}}}}]}");
        assertThatThrownBy(() -> adapter.checkDataset(
                        spec(filtered, new CopyTarget.SearchIndex(filtered, "m-{member_id}", null, null))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("has a filter");
        String seconds = "profiles-" + INDEXES.incrementAndGet();
        TestSearch.createIndex(
                seconds,
                "{\"member_id\": {\"type\": \"long\"}, \"seen\": {\"type\": \"date\","
                        + " \"format\": \"epoch_second\"}}");
        assertThatThrownBy(() -> adapter.checkDataset(TestSearch.spec(
                        "seen-seconds",
                        "seen",
                        new CopyTarget.SearchIndex(seconds, "m-{member_id}", null, null),
                        ConditionalColumn.timestamp("seen"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("epoch_second");
        assertThatThrownBy(() -> adapter.checkDataset(
                        spec("orders", new CopyTarget.SearchIndex("orders", "o-{member_id}", null, null))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("outside connection 'search-test'");
    }

    @Test
    void aDocumentWithACustomRoutingIsFoundDeletedAndRestoredInItsShard() {
        String index = "profiles-" + INDEXES.incrementAndGet();
        TestSearch.call(
                "PUT",
                "/" + index,
                "{\"settings\": {\"number_of_shards\": 3, \"number_of_replicas\": 0},"
                        + " \"mappings\": {\"properties\": {\"member_id\": {\"type\": \"long\"}}}}");
        // a routing that puts m-1 in another shard than its id would: a get by id alone misses it
        String routing = null;
        for (int r = 0; routing == null; r++) {
            TestSearch.call("PUT", "/" + index + "/_doc/m-1?routing=org-" + r + "&refresh=true", "{\"member_id\": 1}");
            if (!TestSearch.call("GET", "/" + index + "/_doc/m-1", null)
                    .path("found")
                    .asBoolean()) {
                routing = "org-" + r;
            } else {
                TestSearch.call("DELETE", "/" + index + "/_doc/m-1?routing=org-" + r + "&refresh=true", null);
            }
        }
        DatasetSpec copy = spec(index, new CopyTarget.SearchIndex(index, "m-{member_id}", null, null));
        adapter.checkDataset(copy);
        List<Map<String, Object>> member1 = List.of(Map.of("member_id", 1L));

        List<DeletionRecord> records = records(copy, adapter.readRows(copy, member1));
        DeleteOutcome outcome =
                adapter.executeDelete(adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, member1)));

        assertThat(outcome.deleted())
                .as("found in its shard, not reported absent")
                .isEqualTo(1);
        assertThat(ids(index)).isEmpty();
        assertThat(adapter.checkLiveState(copy, member1).get(0).present()).isFalse();
        assertThat(adapter.restore(copy, records).records())
                .extracting(RestoreOutcome.RecordOutcome::status)
                .containsExactly(RestoreOutcome.Status.RESTORED);
        assertThat(TestSearch.call("GET", "/" + index + "/_doc/m-1?routing=" + routing, null)
                        .path("found")
                        .asBoolean())
                .as("restored under its routing")
                .isTrue();
        assertThat(ids(index)).containsExactly("m-1");
    }

    @Test
    void anAliasNamingAnIndexOutsideThePrefixesIsRefusedAtRegistrationAndAtEveryPlan() {
        String inside = "profiles-" + INDEXES.incrementAndGet();
        String outside = "payments-" + INDEXES.incrementAndGet();
        String alias = "profiles-alias-" + INDEXES.incrementAndGet();
        for (String index : List.of(inside, outside)) {
            TestSearch.createIndex(index, "{\"member_id\": {\"type\": \"long\"}}");
            TestSearch.call("PUT", "/" + index + "/_doc/m?refresh=true", "{\"member_id\": 1}");
        }
        TestSearch.alias(alias, inside);
        DatasetSpec copy = spec(alias, new CopyTarget.SearchIndex(alias, null, "member_id", null));
        adapter.checkDataset(copy);
        // after registration, the alias gains an index outside the connection's allow-list
        TestSearch.alias(alias, outside);

        assertThatThrownBy(() ->
                        adapter.planDelete(new DeleteBatch(copy, "batch-1", CUTOFF, List.of(Map.of("member_id", 1L)))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("index " + outside + ", outside connection");
        assertThatThrownBy(() -> adapter.checkDataset(copy)).isInstanceOf(StoreException.Fatal.class);
        assertThat(ids(outside)).containsExactly("m");
        assertThat(ids(inside)).containsExactly("m");
    }

    @Test
    void theLoadIsTheClustersOwn() {
        LoadSignal first = adapter.loadSignal();
        LoadSignal second = adapter.loadSignal();

        assertThat(second.parts()).containsKeys("cpu", "queues", "rejections", "search_latency");
        assertThat(second.utilization()).isBetween(0.0, 1.0);
        assertThat(first.measuredAt()).isBeforeOrEqualTo(second.measuredAt());
    }

    private static void index(String index, String id, long member, String what) {
        TestSearch.call(
                "PUT",
                "/" + index + "/_doc/" + id + "?refresh=true",
                "{\"actor\": {\"member_id\": " + member + "}, \"what\": \"" + what + "\", \"displayName\": \"Member "
                        + member + "\"}");
    }

    private static List<String> ids(String index) {
        TestSearch.call("POST", "/" + index + "/_refresh", null);
        return TestSearch.call("POST", "/" + index + "/_search?size=100", "{\"query\": {\"match_all\": {}}}")
                .path("hits")
                .path("hits")
                .valueStream()
                .map(hit -> hit.path("_id").asString())
                .toList();
    }

    private static DatasetSpec spec(String name, CopyTarget.SearchIndex target) {
        return TestSearch.spec(name.replace('.', '-'), "docs", target, ConditionalColumn.none());
    }

    private static List<DeletionRecord> records(DatasetSpec spec, List<LiveRow> rows) {
        DeletionTask task = DeletionTask.forRun(
                RunId.of("run-search"),
                spec,
                rows.stream().map(LiveRow::key).distinct().toList(),
                CUTOFF);
        return rows.stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), Instant.now()))
                .toList();
    }
}
