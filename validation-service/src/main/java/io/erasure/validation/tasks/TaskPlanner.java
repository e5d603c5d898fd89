package io.erasure.validation.tasks;

import io.erasure.model.candidate.Candidate;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Cuts one final-set part into deletion tasks: keys sorted canonically and grouped by partition, so
 * a partition's keys travel together (and a partition delete stays possible); a task holds at most
 * {@code maxKeys}, so a partition larger than that spans tasks. The same part always gives the same
 * tasks (and task ids), so counting at validation and publishing later agree.
 */
public final class TaskPlanner {

    private TaskPlanner() {}

    public static List<DeletionTask> plan(
            RunId runId, DatasetSpec spec, CutoffTimestamp cutoff, List<Candidate> part, int maxKeys) {
        int limit = Math.max(1, Math.min(maxKeys, DeletionTask.MAX_KEYS));
        List<Map<String, Object>> keys = part.stream()
                .map(Candidate::key)
                .sorted(Comparator.comparing((Map<String, Object> key) ->
                                CanonicalKey.render(spec.keyColumns().partitionKeyOf(key)))
                        .thenComparing(CanonicalKey::render))
                .distinct()
                .toList();
        List<DeletionTask> tasks = new ArrayList<>();
        List<Map<String, Object>> current = new ArrayList<>();
        for (Map<String, Object> key : keys) {
            if (current.size() == limit) {
                tasks.add(DeletionTask.forRun(runId, spec, current, cutoff));
                current = new ArrayList<>();
            }
            current.add(key);
        }
        if (!current.isEmpty()) {
            tasks.add(DeletionTask.forRun(runId, spec, current, cutoff));
        }
        return tasks;
    }
}
