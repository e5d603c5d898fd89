package io.erasure.controlplane.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.run.RunState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 9: a run waits for the copy tasks its batches published, and a copy that fails for good fails it. */
class RunCopiesIT extends RunEventsTestSupport {

    @Test
    void aRunCompletesOnlyOnceBothCopiesHaveReportedWithCountsPerCopyInTheReceipt() {
        DatasetSpec spec = registerDataset(RunCopiesIT::withTwoCopies);
        String runId = runUntilDeleting(spec, 10, 2);

        // each source batch published one task per copy: four copy tasks in all
        send(
                runId,
                warned(sourceBatch(spec, "b-1", 6, 2), NO_REPAIR),
                copyBatch(spec, "cache", "c-1", new BatchCounts(5, 0, 1, 0), 0));
        send(
                runId,
                warned(sourceBatch(spec, "b-2", 4, 2), NO_REPAIR, TOMBSTONES),
                copyBatch(spec, "cache", "c-2", new BatchCounts(4, 0, 0, 0), 0));
        send(runId, copyBatch(spec, "cache", "c-2", new BatchCounts(4, 0, 0, 0), 0)); // redelivered
        send(runId, copyBatch(spec, "search", "s-1", new BatchCounts(6, 0, 0, 0), 0));
        RunRecord waiting = awaitRun(runId, run -> run.copyTasksReported() == 3);
        assertThat(waiting.state())
                .as("every source batch is in, one copy task is not")
                .isEqualTo(RunState.DELETING);
        assertThat(waiting.batchesCompleted()).isEqualTo(2);
        assertThat(waiting.copyTasksPublished()).isEqualTo(4);
        assertThat(number(waiting.counts(), "copies.cache.reported.deleted")).isEqualTo(9);

        send(runId, copyBatch(spec, "search", "s-2", new BatchCounts(3, 0, 0, 0), 1));
        RunRecord done = awaitState(runId, RunState.COMPLETED);

        Map<String, Object> receipt = done.receipt();
        assertThat(receipt).containsEntry("outcome", "COMPLETED");
        assertThat(number(receipt, "deletion.batches")).isEqualTo(2);
        assertThat(number(receipt, "deletion.deleted")).isEqualTo(10);
        assertThat(number(receipt, "copies.cache.reported.batches")).isEqualTo(2);
        assertThat(number(receipt, "copies.cache.reported.deleted")).isEqualTo(9);
        assertThat(number(receipt, "copies.cache.reported.alreadyAbsent")).isEqualTo(1);
        assertThat(number(receipt, "copies.cache.reported.stillPresent")).isZero();
        assertThat(number(receipt, "copies.search.reported.deleted")).isEqualTo(9);
        assertThat(number(receipt, "copies.search.reported.stillPresent")).isEqualTo(1);
        assertThat(number(receipt, "copies.search.reported.readBack.rowsRemainingBatches"))
                .isEqualTo(1);
        assertThat(value(receipt, "copies.search.dataset")).isEqualTo(spec.name() + "--search");
        assertThat(value(receipt, "copies.search.failedBatches")).asList().isEmpty();
        assertThat(number(done.counts(), "copies.search.reported.stillPresent")).isEqualTo(1);
        assertThat(number(done.counts(), "deletion.deleted")).isEqualTo(10);
        assertThat(value(receipt, "warnings"))
                .as("the stores' warnings, each once")
                .asList()
                .containsExactlyInAnyOrder(NO_REPAIR, TOMBSTONES);
    }

    private static final String NO_REPAIR = "no repair of \"ks\".\"t\" is known within its gc_grace_seconds";
    private static final String TOMBSTONES =
            "partition 7 would get 1500 tombstones, above tombstone_warn_threshold 1000";

    private static BatchCompleted warned(BatchCompleted batch, String... warnings) {
        return new BatchCompleted(
                batch.dataset(),
                batch.taskId(),
                batch.batchId(),
                batch.requestId(),
                batch.counts(),
                batch.readBack(),
                batch.stillPresent(),
                batch.copyOf(),
                batch.copyTasks(),
                batch.keysDigest(),
                List.of(warnings));
    }

    @Test
    void aCopyThatFailsForGoodFailsTheRunNamingItOnceTheSourceAndOtherCopiesHaveReported() {
        DatasetSpec spec = registerDataset(RunCopiesIT::withTwoCopies);
        String runId = runUntilDeleting(spec, 5, 1);

        // the copy tasks go out before the source batch reports, so their results may come first
        send(
                runId,
                new BatchFailed(spec.name() + "--search", "task-s-1", "s-1", null, "connection reset", true),
                new BatchFailed(spec.name() + "--cache", "task-c-1", "c-1", null, "ERR wrong type for UNLINK", false));
        RunRecord copyFailed = awaitRun(runId, run -> run.copyTasksReported() == 1);
        assertThat(copyFailed.state())
                .as("the retryable failure is redelivered, the source has not reported")
                .isEqualTo(RunState.DELETING);

        send(runId, sourceBatch(spec, "b-1", 5, 2));
        RunRecord sourceDone = awaitRun(runId, run -> run.batchesCompleted() == 1);
        assertThat(sourceDone.state()).as("copy 'search' is still going").isEqualTo(RunState.DELETING);

        send(runId, copyBatch(spec, "search", "s-1", new BatchCounts(5, 0, 0, 0), 0));
        RunRecord failed = awaitState(runId, RunState.FAILED);
        assertThat(failed.failureReason())
                .contains("copy 'cache'")
                .contains("ERR wrong type for UNLINK")
                .doesNotContain("'search'");
        Map<String, Object> receipt = failed.receipt();
        assertThat(receipt).containsEntry("outcome", "FAILED");
        assertThat(number(receipt, "deletion.deleted")).as("source counts kept").isEqualTo(5);
        assertThat(number(receipt, "copies.search.reported.deleted")).isEqualTo(5);
        assertThat(number(receipt, "copies.cache.reported.batches")).isZero();
        assertThat(value(receipt, "copies.cache.failedBatches"))
                .asList()
                .singleElement()
                .satisfies(f -> assertThat(asMap(f))
                        .containsEntry("batchId", "c-1")
                        .containsEntry("reason", "ERR wrong type for UNLINK"));
    }

    static DatasetSpec.Builder withTwoCopies(DatasetSpec.Builder spec) {
        return spec.copies(List.of(
                new DatasetCopy(
                        "cache", StoreKind.REDIS, "redis-main", new CopyTarget.KeyTemplate("profile:{customer_id}")),
                new DatasetCopy(
                        "search",
                        StoreKind.CASSANDRA,
                        "cassandra-main",
                        new CopyTarget.TableMapping("search", "profiles", Map.of("customer_id", "customer_id")))));
    }

    static BatchCompleted sourceBatch(DatasetSpec spec, String batchId, long deleted, int copyTasks) {
        return new BatchCompleted(
                spec.name(),
                "task-" + batchId,
                batchId,
                null,
                new BatchCounts(deleted, 0, 0, 0),
                ReadBackResult.CLEAN,
                0,
                null,
                copyTasks,
                digest(batchId, deleted));
    }

    static BatchCompleted copyBatch(
            DatasetSpec spec, String copy, String batchId, BatchCounts counts, long stillPresent) {
        return new BatchCompleted(
                spec.name() + "--" + copy,
                "task-" + batchId,
                batchId,
                null,
                counts,
                stillPresent > 0 ? ReadBackResult.ROWS_REMAINING : ReadBackResult.CLEAN,
                stillPresent,
                spec.name(),
                0,
                digest(batchId, counts.deleted()));
    }

    /** A stand-in for the digest of the keys a batch deleted: distinct per batch, null when none were. */
    static String digest(String batchId, long deleted) {
        return deleted == 0 ? null : CanonicalKey.digestOf(List.of(Map.of("batch", batchId, "deleted", deleted)));
    }

    static long number(Map<String, Object> map, String path) {
        return ((Number) value(map, path)).longValue();
    }

    static Object value(Map<String, Object> map, String path) {
        Object at = map;
        for (String step : path.split("\\.")) {
            assertThat(at).as(path + " at '" + step + "'").isInstanceOf(Map.class);
            at = ((Map<?, ?>) at).get(step);
        }
        return at;
    }
}
