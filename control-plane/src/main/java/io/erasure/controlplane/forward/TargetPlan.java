package io.erasure.controlplane.forward;

import io.erasure.controlplane.registry.ForwardAction;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.task.DeletionTask;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What becomes of one dataset's target of a request ({@link ForwardTargets}), decided from the dataset as registered
 * and its forward policy, without reading or writing anything: its outcome and the detail shown with it, whether it is
 * a lookup target, and the tasks it needs. The one decision of a target, for a new one and for one held for its grant
 * when the reconciler looks again: not addressable or disabled (left to the audit), a kept snapshot, no grant, or its
 * tasks published (PENDING).
 *
 * @param outcome PENDING (its tasks are published) or why not
 * @param detail  the detail shown with the outcome; null for PENDING
 * @param lookup  the identifier is another column of a table: lookup tasks go out, which the deletion service resolves
 *                through an index into ordinary tasks
 */
record TargetPlan(TargetOutcome outcome, String detail, boolean lookup) {

    static final String NOT_ADDRESSABLE =
            "left to the nightly audit: identifier not in the key of a store without tables";
    static final String NOT_INDEXED = "left to the nightly audit: ";
    static final String DISABLED = "left to the nightly audit: dataset disabled";
    static final String SNAPSHOT_KEPT = "snapshot kept (legal record)";
    static final String NOT_GRANTED = "not published: ";

    /**
     * The plan of a new target of {@code spec}: a lookup target when its identifier is not its whole primary key and it
     * has a table to look it up in ({@link #lookup(DatasetSpec)}).
     */
    static TargetPlan of(
            DatasetSpec spec, boolean enabled, ForwardAction action, Supplier<Optional<String>> ungranted) {
        return of(spec, lookup(spec), enabled, action, ungranted);
    }

    /**
     * The plan of a target of {@code spec} that is a lookup target or not as it was first recorded: not addressable
     * (and no lookup), disabled, a kept snapshot, not granted ({@code ungranted}, the refusal of the dataset's grant,
     * asked only when the rest allows its tasks), or PENDING.
     */
    static TargetPlan of(
            DatasetSpec spec,
            boolean lookup,
            boolean enabled,
            ForwardAction action,
            Supplier<Optional<String>> ungranted) {
        if (!addressable(spec) && !lookup) {
            return new TargetPlan(TargetOutcome.LEFT_TO_AUDIT, NOT_ADDRESSABLE, false);
        }
        if (!enabled) {
            return new TargetPlan(TargetOutcome.LEFT_TO_AUDIT, DISABLED, lookup);
        }
        if (action == ForwardAction.KEEP_SNAPSHOT) {
            return new TargetPlan(TargetOutcome.SNAPSHOT_KEPT, SNAPSHOT_KEPT, lookup);
        }
        return ungranted
                .get()
                .map(refusal -> new TargetPlan(TargetOutcome.NOT_GRANTED, NOT_GRANTED + refusal, lookup))
                .orElseGet(() -> new TargetPlan(TargetOutcome.PENDING, null, lookup));
    }

    /** Its tasks are published now. */
    boolean publishes() {
        return outcome == TargetOutcome.PENDING;
    }

    /**
     * The request waits for it: its tasks are out (PENDING), or held for the grant (NOT_GRANTED). Any other target is
     * confirmed as it is recorded.
     */
    boolean blocking() {
        return outcome == TargetOutcome.PENDING || outcome == TargetOutcome.NOT_GRANTED;
    }

    /** The target is recorded as a lookup target: one that waits for its lookups' reports. */
    boolean recordedAsLookup() {
        return blocking() && lookup;
    }

    /** The keys the target waits for at first: none for a lookup target (its lookups report them), else every key. */
    int expectedKeys(int keys) {
        return lookup ? 0 : keys;
    }

    /** The lookups the target waits for, of its {@code tasks}: each of them if it is recorded as a lookup target. */
    int lookupTasks(int tasks) {
        return recordedAsLookup() ? tasks : 0;
    }

    /** The identifier is the dataset's whole primary key: each id is one key, no lookup needed. */
    static boolean addressable(DatasetSpec spec) {
        return spec.keyColumns().primaryKey().equals(List.of(spec.identifierColumn()));
    }

    /**
     * A lookup target: the identifier is another column than the whole primary key, of a dataset with a table to look
     * it up in (a tableless one is left to the audit at once).
     */
    static boolean lookup(DatasetSpec spec) {
        return !addressable(spec) && spec.target() == null;
    }

    /**
     * The key of {@code id}: a number when it reads as one, else the text. The registry does not hold
     * column types; numeric and text identifiers are what the registered sources use.
     */
    static Map<String, Object> keyOf(DatasetSpec spec, String id) {
        Object value = id;
        try {
            long number = Long.parseLong(id);
            // "007" or "+7" stay text: as a number they would address member "7"
            if (Long.toString(number).equals(id)) {
                value = number;
            }
        } catch (NumberFormatException notANumber) {
            value = id;
        }
        return Map.of(spec.identifierColumn(), value);
    }

    /**
     * Forward tasks of {@code keys} (or, for a lookup target, lookup tasks of the identifiers), 1,000 per task. Their
     * ids depend only on what they carry, so the same target's tasks built again are the same tasks.
     */
    static List<DeletionTask> tasks(
            String requestId,
            DatasetSpec spec,
            List<Map<String, Object>> keys,
            CutoffTimestamp cutoff,
            boolean lookup,
            List<String> clear) {
        return DeletionTask.taskSized(keys).stream()
                .map(part -> lookup
                        ? DeletionTask.forwardLookup(requestId, spec, part, cutoff, spec.priority(), clear)
                        : DeletionTask.forward(requestId, spec, part, cutoff, spec.priority(), clear))
                .toList();
    }

    /** The digest of a target's keys, whatever their order: with the event id and dataset, its effect's identity. */
    static String keySet(List<Map<String, Object>> keys) {
        return DeterministicId.sha256Hex(
                keys.stream().map(CanonicalKey::render).sorted().toArray(String[]::new));
    }
}
