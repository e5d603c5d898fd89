package io.erasure.controlplane.run;

import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.controlplane.control.KillSwitches;
import io.erasure.controlplane.ownership.OwnershipRules;
import io.erasure.controlplane.refusal.Refusal;
import io.erasure.controlplane.registry.DatasetRegistry;
import io.erasure.controlplane.registry.DatasetView;
import io.erasure.controlplane.registry.ForwardAction;
import io.erasure.controlplane.registry.ForwardPolicies;
import io.erasure.controlplane.registry.IdentifierSourceRegistry;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.AuditRequested;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.event.RunCancelled;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.run.RunId;
import io.erasure.model.run.RunState;
import io.erasure.support.access.Caller;
import io.erasure.support.access.Role;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Starts runs and carries out the decisions people make about them: approve, reject, cancel.
 * A run freezes the dataset spec it starts with; the approver is never the person who triggered the
 * run or registered the dataset (DESIGN invariant 5).
 */
@Service
public class RunService {

    /** The actor recorded for runs started by a dataset's cron. */
    public static final String SCHEDULER = "scheduler";

    private final RunStore runs;
    private final DatasetRegistry datasets;
    private final IdentifierSourceRegistry sources;
    private final RunCommands commands;
    private final KillSwitches killSwitches;
    private final ActionsLog actions;
    private final ForwardPolicies policies;
    private final RunApprovals approvals;
    private final OwnershipRules ownership;

    public RunService(
            RunStore runs,
            DatasetRegistry datasets,
            IdentifierSourceRegistry sources,
            RunCommands commands,
            KillSwitches killSwitches,
            ActionsLog actions,
            ForwardPolicies policies,
            RunApprovals approvals,
            OwnershipRules ownership) {
        this.approvals = approvals;
        this.ownership = ownership;
        this.policies = policies;
        this.runs = runs;
        this.datasets = datasets;
        this.sources = sources;
        this.commands = commands;
        this.killSwitches = killSwitches;
        this.actions = actions;
    }

    /** A run triggered through the API by an OPERATOR or an OWNER of the dataset's team. */
    @Transactional
    public RunRecord trigger(String dataset, boolean dryRun, Caller caller) {
        DatasetView view = datasets.require(dataset);
        if (!caller.has(Role.OPERATOR) && !caller.ownsTeam(view.spec().ownerTeam())) {
            throw Refusal.forbidden("only an OPERATOR or an OWNER of team '"
                    + view.spec().ownerTeam() + "' may start a run of '" + dataset + "'");
        }
        return start(view, dryRun, caller.name());
    }

    /**
     * A run started by the dataset's schedule, or empty if the previous run is still going (runs of
     * one dataset never overlap) or the dataset was disabled meanwhile.
     */
    @Transactional
    public Optional<RunRecord> startScheduled(String dataset) {
        DatasetView view = datasets.require(dataset);
        Optional<RunRecord> active = runs.activeRun(dataset);
        String keeps = rowsKept(view.spec().name());
        Optional<String> ungranted = ownership.refusal(view.spec());
        if (active.isPresent() || !view.enabled() || keeps != null || ungranted.isPresent()) {
            actions.record(
                    SCHEDULER,
                    "run.skipped",
                    "dataset:" + dataset,
                    Map.of(
                            "reason",
                            active.map(run -> "run " + run.id() + " is still " + run.state())
                                    .orElseGet(() -> !view.enabled()
                                            ? "dataset is disabled"
                                            : keeps != null ? keeps : ungranted.get())));
            return Optional.empty();
        }
        return Optional.of(start(view, false, SCHEDULER));
    }

    private RunRecord start(DatasetView view, boolean dryRun, String actor) {
        DatasetSpec spec = view.spec();
        if (!view.enabled()) {
            throw Refusal.conflict("dataset '" + spec.name() + "' is disabled; enable it before starting a run");
        }
        String keeps = rowsKept(spec.name());
        if (keeps != null && !dryRun) {
            throw Refusal.conflict(keeps);
        }
        // grants can be narrowed after registration: a dataset no longer granted to its team does not run
        ownership.refusal(spec).ifPresent(refusal -> {
            throw Refusal.conflict("dataset '" + spec.name() + "' is no longer registrable as it is: " + refusal);
        });
        String id = RunId.random().value();
        IdentifierSourceRegistry.Current source = sources.current(spec.identifierSource())
                .orElseThrow(() -> Refusal.conflict("identifier source '" + spec.identifierSource() + "' of dataset '"
                        + spec.name() + "' is not registered"));
        // the source decides what is deletable: one whose team lost the grant for its table or backups does not run
        // either
        IdentifierSource frozenSource = source.source();
        if (frozenSource.ownerTeam() != null) {
            ownership.refusal(frozenSource, frozenSource.ownerTeam()).ifPresent(refusal -> {
                throw Refusal.conflict("identifier source '" + frozenSource.name() + "' of dataset '" + spec.name()
                        + "' is no longer registrable as it is: " + refusal);
            });
        }
        if (!runs.insert(id, spec, view.revision(), source.source(), source.revision(), dryRun, actor)) {
            RunRecord active = runs.activeRun(spec.name()).orElse(null);
            throw Refusal.conflict("a run of '" + spec.name() + "' is already active"
                    + (active == null ? "" : ": " + active.id() + " in " + active.state())
                    + "; runs of one dataset never overlap");
        }
        commands.send(id, new AuditRequested(spec, source.source(), dryRun));
        runs.move(runs.lock(id).orElseThrow(), RunState.AUDITING);
        actions.record(
                actor,
                dryRun ? "run.started.dry-run" : "run.started",
                subject(id),
                Map.of("dataset", spec.name(), "revision", view.revision()));
        return runs.find(id).orElseThrow();
    }

    /**
     * Why a run must not delete from {@code dataset}, or null: its owner declared its rows kept (KEEP_SNAPSHOT, e.g.
     * legal records) or anonymised instead of deleted (ANONYMISE), and a run deletes whole rows.
     */
    private String rowsKept(String dataset) {
        ForwardAction action = policies.policyOf(dataset).action();
        return action == ForwardAction.DELETE
                ? null
                : "dataset '" + dataset + "' has the policy " + action
                        + ", which keeps its rows, while a run deletes whole rows: runs of it are refused (dry-runs"
                        + " excepted); its OWNER sets the policy to DELETE to let runs delete its backlog";
    }

    @Transactional
    public RunRecord approve(String runId, Caller caller) {
        RunRecord run = awaitingDecision(runId, caller);
        approvals.requireMayApprove(run, caller);
        if (!runs.move(run, RunState.AUTHORIZED)) {
            throw Refusal.conflict("run " + runId + " changed state meanwhile; reload it");
        }
        runs.recordDecision(runId, null, caller.name());
        commands.authorize(run, DeletionAuthorized.Basis.APPROVED, caller.name());
        actions.record(caller.name(), "run.approved", subject(runId), Map.of("dataset", run.dataset()));
        return runs.find(runId).orElseThrow();
    }

    @Transactional
    public RunRecord reject(String runId, Caller caller, String reason) {
        RunRecord run = awaitingDecision(runId, caller);
        String why = reasonOrDefault(reason, "rejected by " + caller.name());
        runs.move(run, RunState.CANCELLED);
        runs.recordDecision(runId, null, caller.name());
        runs.recordFailure(runId, why);
        commands.send(runId, new RunCancelled(run.dataset(), caller.name(), why));
        actions.record(caller.name(), "run.rejected", subject(runId), Map.of("dataset", run.dataset(), "reason", why));
        return runs.find(runId).orElseThrow();
    }

    @Transactional
    public RunRecord cancel(String runId, Caller caller, String reason) {
        RunRecord run = runs.lock(runId).orElseThrow(() -> Refusal.notFound("run " + runId));
        if (!caller.has(Role.OPERATOR) && !caller.ownsTeam(run.spec().ownerTeam())) {
            throw Refusal.forbidden(
                    "only an OPERATOR or an OWNER of team '" + run.spec().ownerTeam() + "' may cancel this run");
        }
        if (!run.state().canTransitionTo(RunState.CANCELLED)) {
            throw Refusal.conflict("run " + runId + " is " + run.state() + " and can no longer be cancelled");
        }
        String why = reasonOrDefault(reason, "cancelled by " + caller.name());
        runs.move(run, RunState.CANCELLED);
        runs.recordFailure(runId, why);
        commands.send(runId, new RunCancelled(run.dataset(), caller.name(), why));
        killSwitches.announceCancellation(run.dataset(), RunId.of(runId), caller.name(), why);
        actions.record(caller.name(), "run.cancelled", subject(runId), Map.of("dataset", run.dataset(), "reason", why));
        return runs.find(runId).orElseThrow();
    }

    public RunRecord require(String runId) {
        return runs.find(runId).orElseThrow(() -> Refusal.notFound("run " + runId));
    }

    private RunRecord awaitingDecision(String runId, Caller caller) {
        if (!caller.has(Role.OPERATOR)) {
            throw Refusal.forbidden("only an OPERATOR may approve or reject a run");
        }
        RunRecord run = runs.lock(runId).orElseThrow(() -> Refusal.notFound("run " + runId));
        if (run.state() != RunState.AWAITING_APPROVAL) {
            throw Refusal.conflict("run " + runId + " is " + run.state() + ", not AWAITING_APPROVAL");
        }
        return run;
    }

    private static String reasonOrDefault(String reason, String fallback) {
        return reason == null || reason.isBlank() ? fallback : reason.trim();
    }

    static String subject(String runId) {
        return "run:" + runId;
    }
}
