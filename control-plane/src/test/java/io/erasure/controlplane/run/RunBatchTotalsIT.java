package io.erasure.controlplane.run;

import static io.erasure.controlplane.run.RunCopiesIT.copyBatch;
import static io.erasure.controlplane.run.RunCopiesIT.digest;
import static io.erasure.controlplane.run.RunCopiesIT.number;
import static io.erasure.controlplane.run.RunCopiesIT.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.contract.Topics;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.run.RunState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 19: a run's batch results are added to running totals as they come (each batch once, whatever the
 * redeliveries), and the run's decisions and receipt come from those totals.
 */
class RunBatchTotalsIT extends RunEventsTestSupport {

    private static final int BATCHES = 2_000;
    private static final int COPY_TASKS = 100;

    @Autowired
    RunBatches batches;

    @Test
    void twoThousandBatchesSomeRedeliveredTwiceAreEachCountedOnceInTheTotalsAndTheReceipt() {
        DatasetSpec spec = registerDataset(RunCopiesIT::withTwoCopies);
        List<BatchCompleted> own = new ArrayList<>();
        long deleted = 0;
        long skippedNewer = 0;
        long alreadyAbsent = 0;
        long stillPresent = 0;
        long rowsRemaining = 0;
        long notSupported = 0;
        List<String> digests = new ArrayList<>();
        for (int i = 0; i < BATCHES; i++) {
            BatchCompleted batch = ownBatch(spec, i);
            own.add(batch);
            deleted += batch.counts().deleted();
            skippedNewer += batch.counts().skippedNewer();
            alreadyAbsent += batch.counts().alreadyAbsent();
            stillPresent += batch.stillPresent();
            rowsRemaining += batch.readBack() == ReadBackResult.ROWS_REMAINING ? 1 : 0;
            notSupported += batch.readBack() == ReadBackResult.NOT_SUPPORTED ? 1 : 0;
            if (batch.keysDigest() != null) {
                digests.add(batch.keysDigest());
            }
        }
        String runId = runUntilDeleting(spec, 900, BATCHES); // the rows validation found do not matter here

        // everything but the last batch; every 40th comes three times: the same event again, then a new event for
        // the same batch (as after a deletion replica's crash); the first 100 batches each published a copy task
        List<EventEnvelope> events = new ArrayList<>();
        for (int i = 0; i < BATCHES - 1; i++) {
            EventEnvelope event = event(runId, own.get(i));
            events.add(event);
            if (i % 40 == 0) {
                events.add(event);
                events.add(event(runId, own.get(i)));
            }
            if (i < COPY_TASKS) {
                EventEnvelope copy = event(runId, copyBatch(spec, "cache", "c-" + i, new BatchCounts(3, 0, 1, 0), 0));
                events.add(copy);
                if (i % 10 == 0) {
                    events.add(copy);
                    events.add(event(runId, copyBatch(spec, "cache", "c-" + i, new BatchCounts(3, 0, 1, 0), 0)));
                }
            }
        }
        sendAll(events);
        // ~2,300 events, one transaction each: seconds on an idle host, minutes at a load average of 30
        RunRecord waiting = awaitRun(
                runId,
                run -> run.batchesCompleted() == BATCHES - 1 && run.copyTasksReported() == COPY_TASKS,
                Duration.ofMinutes(5));
        assertThat(waiting.state()).as("one batch has not reported").isEqualTo(RunState.DELETING);
        assertThat(waiting.copyTasksPublished()).isEqualTo(COPY_TASKS);
        assertThat(number(waiting.counts(), "deletion.batches")).isEqualTo(BATCHES - 1);
        assertThatTotalsAreTheSumOfTheRecordedBatches(runId, spec);

        send(event(runId, own.get(BATCHES - 1)));
        RunRecord done = awaitState(runId, RunState.COMPLETED);
        assertThat(done.batchesCompleted()).isEqualTo(BATCHES);
        assertThat(done.copyTasksReported()).isEqualTo(COPY_TASKS);

        Map<String, Object> receipt = done.receipt();
        assertThat(number(receipt, "deletion.batches")).isEqualTo(BATCHES);
        assertThat(number(receipt, "deletion.deleted")).isEqualTo(deleted);
        assertThat(number(receipt, "deletion.skippedNewer")).isEqualTo(skippedNewer);
        assertThat(number(receipt, "deletion.alreadyAbsent")).isEqualTo(alreadyAbsent);
        assertThat(number(receipt, "deletion.failed")).isZero();
        assertThat(number(receipt, "deletion.stillPresent")).isEqualTo(stillPresent);
        assertThat(number(receipt, "deletion.readBack.cleanBatches")).isEqualTo(BATCHES - rowsRemaining - notSupported);
        assertThat(number(receipt, "deletion.readBack.rowsRemainingBatches")).isEqualTo(rowsRemaining);
        assertThat(number(receipt, "deletion.readBack.notSupportedBatches")).isEqualTo(notSupported);
        assertThat(number(receipt, "tasks.taskCount")).isEqualTo(BATCHES);
        assertThat(number(receipt, "tasks.copyTasksPublished")).isEqualTo(COPY_TASKS);
        assertThat(number(receipt, "tasks.copyTasksReported")).isEqualTo(COPY_TASKS);
        assertThat(number(receipt, "copies.cache.reported.batches")).isEqualTo(COPY_TASKS);
        assertThat(number(receipt, "copies.cache.reported.deleted")).isEqualTo(3L * COPY_TASKS);
        assertThat(number(receipt, "copies.cache.reported.alreadyAbsent")).isEqualTo(COPY_TASKS);
        assertThat(number(receipt, "copies.search.reported.batches")).isZero();
        assertThat(number(receipt, "readBack.batches")).isEqualTo(BATCHES + COPY_TASKS);
        assertThat(number(receipt, "readBack.rowsRemaining")).isEqualTo(stillPresent);
        assertThat(asMap(value(receipt, "deletedKeys.dataset"))).isEqualTo(asMap(DeletedKeysDigest.of(digests)));
        assertThat(number(receipt, "deletedKeys.copies.cache.batches")).isEqualTo(COPY_TASKS);
        assertThat(asMap(value(receipt, "deletion")))
                .as("the receipt's totals are what the batches sum to")
                .isEqualTo(asMap(summedFromBatches(runId, spec).get(spec.name())));
        assertThatTotalsAreTheSumOfTheRecordedBatches(runId, spec);
    }

    /** Batch {@code i}: counts, read-back and digest vary with it, so a batch counted twice or not at all shows. */
    private static BatchCompleted ownBatch(DatasetSpec spec, int i) {
        ReadBackResult readBack = i % 7 == 0
                ? ReadBackResult.ROWS_REMAINING
                : i % 11 == 0 ? ReadBackResult.NOT_SUPPORTED : ReadBackResult.CLEAN;
        long deleted = i % 9 == 0 ? 0 : 50 + i % 13;
        return new BatchCompleted(
                spec.name(),
                "task-b-" + i,
                "b-" + i,
                null,
                new BatchCounts(deleted, i % 3, i % 4, 0),
                readBack,
                readBack == ReadBackResult.ROWS_REMAINING ? 1 + i % 2 : 0,
                null,
                i < COPY_TASKS ? 1 : 0,
                digest("b-" + i, deleted));
    }

    private void sendAll(List<EventEnvelope> events) {
        // in order on the run's partition; waiting for each send would make the test slow, not more exact
        events.forEach(e -> kafka.send(Topics.RUN_EVENTS, e.runId(), json.writeValueAsString(e)));
        kafka.flush();
    }

    private void assertThatTotalsAreTheSumOfTheRecordedBatches(String runId, DatasetSpec spec) {
        assertThat(asMap(runs.find(runId).orElseThrow().counts().get("deletion")))
                .isEqualTo(asMap(summedFromBatches(runId, spec).get(spec.name())));
        assertThat(asMap(batches.totalsByDataset(runId))).isEqualTo(asMap(summedFromBatches(runId, spec)));
    }

    /** The totals summed again from every recorded batch, as the control plane did on each event before issue 19. */
    private Map<String, BatchTotals> summedFromBatches(String runId, DatasetSpec spec) {
        Map<String, BatchTotals> totals = new LinkedHashMap<>();
        jdbc.query(
                """
                        SELECT CASE WHEN copy_of IS NULL THEN ? ELSE dataset END AS of_dataset, count(*) AS batches,
                               sum(deleted) AS deleted, sum(skipped_newer) AS skipped_newer,
                               sum(already_absent) AS already_absent, sum(failed) AS failed,
                               sum(still_present) AS still_present,
                               count(*) FILTER (WHERE read_back = 'CLEAN') AS clean,
                               count(*) FILTER (WHERE read_back = 'ROWS_REMAINING') AS rows_remaining,
                               count(*) FILTER (WHERE read_back = 'NOT_SUPPORTED') AS not_supported,
                               min(received_at) AS first_at, max(received_at) AS last_at
                        FROM run_batches WHERE run_id = ? GROUP BY 1 ORDER BY 1""",
                rs -> {
                    totals.put(
                            rs.getString("of_dataset"),
                            new BatchTotals(
                                    rs.getLong("batches"),
                                    rs.getLong("deleted"),
                                    rs.getLong("skipped_newer"),
                                    rs.getLong("already_absent"),
                                    rs.getLong("failed"),
                                    rs.getLong("still_present"),
                                    new BatchTotals.ReadBacks(
                                            rs.getLong("clean"),
                                            rs.getLong("rows_remaining"),
                                            rs.getLong("not_supported")),
                                    rs.getTimestamp("first_at").toInstant().toString(),
                                    rs.getTimestamp("last_at").toInstant().toString()));
                },
                spec.name(),
                runId);
        return totals;
    }
}
