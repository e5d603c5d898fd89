package io.erasure.controlplane.run;

import io.erasure.controlplane.ownership.OwnershipRules;
import io.erasure.controlplane.refusal.Refusal;
import io.erasure.controlplane.registry.DatasetRegistry;
import io.erasure.controlplane.registry.DatasetView;
import io.erasure.controlplane.registry.IdentifierSourceRegistry;
import io.erasure.model.event.ValidationCompleted;
import io.erasure.support.access.Caller;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * The four-eyes rules of runs (DESIGN invariant 5): when a validated run must wait for an OPERATOR, and who may not
 * be that OPERATOR.
 *
 * <p>A run waits when its final set exceeds its owner's limits or the operators' ceiling, and whenever it would delete
 * under something no one has yet seen deleting: the first run of a dataset that deletes anything, and the first run
 * after any change of its spec (limits included) or of its identifier source. "Seen deleting" is the baseline: the
 * latest completed run that deleted at least one row ({@link RunStore#baseline}); a run that found nothing proves
 * nothing and never becomes one.
 *
 * <p>The approver is never someone whose change the approval covers: whoever triggered the run, registered the dataset,
 * or edited its spec or its identifier source since the baseline (an OWNER who is also an OPERATOR cannot approve their
 * own edit).
 */
@Service
public class RunApprovals {

    private final RunStore runs;
    private final DatasetRegistry datasets;
    private final IdentifierSourceRegistry sources;
    private final OwnershipRules ownership;

    public RunApprovals(
            RunStore runs, DatasetRegistry datasets, IdentifierSourceRegistry sources, OwnershipRules ownership) {
        this.runs = runs;
        this.datasets = datasets;
        this.sources = sources;
        this.ownership = ownership;
    }

    /** Why {@code run} must wait for an OPERATOR after {@code validation}, or empty if it may delete now. */
    public Optional<String> holdReason(RunRecord run, ValidationCompleted validation) {
        long rows = validation.finalCount();
        if (validation.exceedsLimit()) {
            return Optional.of("the final set of " + rows + " rows exceeds the dataset's limit "
                    + run.spec().limits());
        }
        if (rows <= 0) {
            return Optional.empty();
        }
        long total = run.totalRows() == null ? 0 : run.totalRows();
        if (ownership.ceiling().exceededBy(rows, total)) {
            return Optional.of("the final set of " + rows + " of " + total + " rows exceeds the operators' ceiling "
                    + ownership.ceiling() + " (erasure.ownership.limits-ceiling)");
        }
        Optional<RunStore.Baseline> baseline = runs.baseline(run.id());
        if (baseline.isEmpty()) {
            return Optional.of("first run of dataset '" + run.dataset() + "' that deletes rows: no earlier run of it"
                    + " deleted any");
        }
        RunStore.Baseline last = baseline.get();
        if (!last.sameSpec()) {
            return Optional.of("first run since the spec of dataset '" + run.dataset() + "' changed (revision "
                    + last.specRevision() + " of run " + last.runId() + " deleted; this run is at revision "
                    + run.specRevision() + ")");
        }
        if (!last.sameSource()) {
            return Optional.of("first run since identifier source '"
                    + run.spec().identifierSource() + "' changed"
                    + " (revision " + last.sourceRevision() + " of run " + last.runId() + " deleted; this run is at"
                    + " revision " + runs.identifierSourceRevision(run.id()) + ")");
        }
        return Optional.empty();
    }

    /** Refuses (403) an approval of {@code run} by {@code caller} if the approval would cover their own action. */
    public void requireMayApprove(RunRecord run, Caller caller) {
        Map<String, String> excluded = new LinkedHashMap<>();
        excluded.put(run.triggeredBy(), "triggered this run");
        DatasetView dataset = datasets.require(run.dataset());
        excluded.putIfAbsent(dataset.registeredBy(), "registered dataset '" + run.dataset() + "'");
        Optional<RunStore.Baseline> baseline = runs.baseline(run.id());
        int specRevision = run.specRevision() == null ? dataset.revision() : run.specRevision();
        for (String editor : datasets.specEditors(
                run.dataset(), baseline.map(RunStore.Baseline::specRevision).orElse(null), specRevision)) {
            excluded.putIfAbsent(editor, "changed the spec of '" + run.dataset() + "' since it last deleted");
        }
        String source = run.spec().identifierSource();
        Integer sourceRevision = runs.identifierSourceRevision(run.id());
        if (sourceRevision != null) {
            for (String editor : sources.editors(
                    source, baseline.map(RunStore.Baseline::sourceRevision).orElse(null), sourceRevision)) {
                excluded.putIfAbsent(
                        editor, "changed identifier source '" + source + "' since the dataset last deleted");
            }
        }
        String why = excluded.get(caller.name());
        if (why != null) {
            throw Refusal.forbidden("'" + caller.name() + "' " + why + ", so another OPERATOR must approve run "
                    + run.id() + " (no one approves their own change or run: "
                    + String.join(", ", excluded.keySet()) + " may not)");
        }
    }
}
