package io.erasure.recovery.reapply;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.task.DeletionTask;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The deletion tasks that re-apply a dataset's erasures: per original cut-off and effect (a whole-row delete, or an
 * anonymisation clearing the same columns), its keys in tasks of at most {@link DeletionTask#MAX_KEYS}, all with the
 * same forward-deletion origin {@code requestId}. Deleting at the original cut-off (not now) lets every write made
 * after the erasure survive: a person who came back after being erased is not erased again. An anonymisation is
 * re-applied as one (its row was kept on purpose), never as a delete.
 */
record ReapplicationPlan(String requestId, List<CutoffGroup> groups) {

    /**
     * @param clearColumns the columns the group's tasks clear, sorted; empty when they delete whole rows
     * @param specDigest   the digest of the frozen spec the group's tasks delete under (its erasures' origins froze it)
     */
    record CutoffGroup(
            long cutoffMicros,
            List<String> clearColumns,
            String specDigest,
            List<Map<String, Object>> keys,
            List<DeletionTask> tasks) {}

    /** The spec an erasure is re-applied under, the one its origin deleted under, and its digest. */
    record Under(String specDigest, DatasetSpec spec) {}

    /** Deletes before anonymisations at one cut-off, then by the cleared columns: a stable order for the history. */
    private static final Comparator<List<String>> BY_COLUMNS =
            Comparator.<List<String>>comparingInt(List::size).thenComparing(columns -> String.join(",", columns));

    ReapplicationPlan {
        groups = List.copyOf(groups);
    }

    /**
     * {@code reapply-} + 40 hex characters of SHA-256 over (dataset, the window or snapshot as asked, the caller's
     * request id): a retry of the same request gets the same id, so its tasks get the same ids.
     */
    static String requestIdFor(String dataset, String scopeText, String clientRequestId) {
        return "reapply-"
                + DeterministicId.sha256Hex("reapplication-v1", dataset, scopeText, clientRequestId)
                        .substring(0, 40);
    }

    /** Every erasure under one spec. */
    static ReapplicationPlan of(String requestId, DatasetSpec spec, ErasureLogScan.Erasures erasures) {
        Under under = new Under("", spec);
        return of(requestId, erasure -> under, erasures);
    }

    /**
     * Each erasure under the spec {@code specOf} gives it (its origin's frozen spec): erasures of runs under two
     * revisions of the spec become tasks of each, so each revision's copies and table are the ones deleted again.
     */
    static ReapplicationPlan of(
            String requestId, Function<ErasureLogScan.Erasure, Under> specOf, ErasureLogScan.Erasures erasures) {
        SortedMap<Long, SortedMap<List<String>, SortedMap<String, List<Map<String, Object>>>>> byEffect =
                new TreeMap<>();
        Map<String, DatasetSpec> specs = new HashMap<>();
        erasures.erasures().forEach(erasure -> {
            Under under = specOf.apply(erasure);
            specs.putIfAbsent(under.specDigest(), under.spec());
            byEffect.computeIfAbsent(erasure.cutoffMicros(), cutoff -> new TreeMap<>(BY_COLUMNS))
                    .computeIfAbsent(erasure.clearColumns(), columns -> new TreeMap<>())
                    .computeIfAbsent(under.specDigest(), digest -> new ArrayList<>())
                    .add(erasure.key());
        });
        List<CutoffGroup> groups = new ArrayList<>();
        byEffect.forEach((cutoff, effects) ->
                effects.forEach((clearColumns, bySpec) -> bySpec.forEach((digest, unordered) -> {
                    DatasetSpec spec = specs.get(digest);
                    // keys of one partition side by side: a task is routed by its first key's partition
                    // (Topics.taskKey)
                    List<Map<String, Object>> keys = unordered.stream()
                            .sorted(Comparator.<Map<String, Object>, String>comparing(key -> CanonicalKey.render(
                                            spec.keyColumns().partitionKeyOf(key)))
                                    .thenComparing(CanonicalKey::render))
                            .toList();
                    List<DeletionTask> tasks = DeletionTask.taskSized(keys).stream()
                            .map(part -> DeletionTask.forward(
                                    requestId,
                                    spec,
                                    part,
                                    CutoffTimestamp.ofMicros(cutoff),
                                    spec.priority(),
                                    clearColumns))
                            .toList();
                    groups.add(new CutoffGroup(cutoff, clearColumns, digest, keys, tasks));
                })));
        return new ReapplicationPlan(requestId, groups);
    }

    List<DeletionTask> tasks() {
        return groups.stream().flatMap(group -> group.tasks().stream()).toList();
    }
}
