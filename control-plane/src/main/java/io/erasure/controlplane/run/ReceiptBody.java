package io.erasure.controlplane.run;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.run.RunState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run's receipt says, in a fixed order: who asked for it and who approved it, which spec and
 * cut-off it ran under, the counts of every step (audit, validation, deletion, read-back) and of every
 * copy, a digest of the deleted keys, and how long each state took. Pure: the caller gathers the facts.
 */
final class ReceiptBody {

    static final int VERSION = 1;

    private ReceiptBody() {}

    /**
     * @param totals      batch totals by dataset (the run's own under its name, copies under their view names)
     * @param failures    batches that failed for good
     * @param digests     batch key digests by dataset, as {@code totals}
     * @param specSha256  SHA-256 hex of the frozen spec as the control plane serializes it
     */
    static Map<String, Object> of(
            RunRecord run,
            RunState outcome,
            Map<String, BatchTotals> totals,
            List<BatchFailure> failures,
            Map<String, List<String>> digests,
            String specSha256,
            Instant issuedAt) {
        Map<String, Object> receipt = new LinkedHashMap<>();
        receipt.put("receiptVersion", VERSION);
        receipt.put("runId", run.id());
        receipt.put("dataset", run.dataset());
        receipt.put("dryRun", run.dryRun());
        receipt.put("outcome", outcome);
        receipt.put("failureReason", run.failureReason());
        receipt.put("spec", ordered("revision", run.specRevision(), "sha256", specSha256));
        receipt.put(
                "cutoff",
                run.cutoffMicros() == null
                        ? null
                        : ordered(
                                "micros",
                                run.cutoffMicros(),
                                "at",
                                CutoffTimestamp.ofMicros(run.cutoffMicros())
                                        .toInstant()
                                        .toString()));
        receipt.put("triggeredBy", run.triggeredBy());
        receipt.put("approvedBy", run.decidedBy());
        receipt.put("approvalReason", run.approvalReason());
        receipt.put("audit", run.counts().getOrDefault("audit", Map.of()));
        receipt.put("validation", run.counts().getOrDefault("validation", Map.of()));
        receipt.put(
                "tasks",
                ordered(
                        "taskCount",
                        run.taskCount(),
                        "copyTasksPublished",
                        run.copyTasksPublished(),
                        "copyTasksReported",
                        run.copyTasksReported()));

        BatchTotals own = totals.getOrDefault(run.dataset(), BatchTotals.NONE);
        receipt.put("deletion", own);
        Map<String, CopyTotals> copies = CopyTotals.of(run, totals, failures);
        receipt.put("copies", copies);
        receipt.put(
                "failedBatches",
                failures.stream().filter(f -> f.copyOf() == null).toList());
        receipt.put("readBack", readBack(own, copies));
        receipt.put("warnings", run.counts().getOrDefault("warnings", List.of()));

        Map<String, Object> deletedKeys = new LinkedHashMap<>();
        deletedKeys.put("dataset", DeletedKeysDigest.of(digests.getOrDefault(run.dataset(), List.of())));
        Map<String, DeletedKeysDigest> copyDigests = new LinkedHashMap<>();
        copies.forEach((name, copy) ->
                copyDigests.put(name, DeletedKeysDigest.of(digests.getOrDefault(copy.dataset(), List.of()))));
        deletedKeys.put("copies", copyDigests);
        receipt.put("deletedKeys", deletedKeys);

        receipt.put("timings", timings(run.steps(), issuedAt));
        receipt.put("issuedAt", issuedAt.toString());
        return receipt;
    }

    /** The read-backs of the run's own batches and of every copy's, together. */
    private static Map<String, Object> readBack(BatchTotals own, Map<String, CopyTotals> copies) {
        List<BatchTotals> all = new ArrayList<>();
        all.add(own);
        copies.values().forEach(copy -> all.add(copy.reported()));
        return ordered(
                "batches",
                all.stream().mapToLong(BatchTotals::batches).sum(),
                "cleanBatches",
                all.stream().mapToLong(t -> t.readBack().cleanBatches()).sum(),
                "rowsRemainingBatches",
                all.stream().mapToLong(t -> t.readBack().rowsRemainingBatches()).sum(),
                "notSupportedBatches",
                all.stream().mapToLong(t -> t.readBack().notSupportedBatches()).sum(),
                "rowsRemaining",
                all.stream().mapToLong(BatchTotals::stillPresent).sum());
    }

    /**
     * Each state the run entered, in order, with how long it stayed there; the state it is in when the
     * receipt is issued lasts until then.
     */
    private static Map<String, Object> timings(Map<String, Object> steps, Instant issuedAt) {
        List<Map.Entry<String, Instant>> entered = new ArrayList<>();
        steps.forEach((state, at) -> entered.add(Map.entry(state, Instant.parse(String.valueOf(at)))));
        entered.sort(Map.Entry.comparingByValue());
        Map<String, Object> states = new LinkedHashMap<>();
        for (int i = 0; i < entered.size(); i++) {
            Instant from = entered.get(i).getValue();
            Instant to = i + 1 < entered.size() ? entered.get(i + 1).getValue() : issuedAt;
            states.put(
                    entered.get(i).getKey(),
                    ordered(
                            "enteredAt",
                            from.toString(),
                            "durationMillis",
                            Duration.between(from, to).toMillis()));
        }
        Instant started = entered.isEmpty() ? issuedAt : entered.get(0).getValue();
        return ordered(
                "states",
                states,
                "totalMillis",
                Duration.between(started, issuedAt).toMillis());
    }

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
