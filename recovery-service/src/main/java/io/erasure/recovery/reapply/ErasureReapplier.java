package io.erasure.recovery.reapply;

import io.erasure.deletionlog.client.FrozenSpec;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.recovery.reapply.ReapplicationStore.CutoffGroupView;
import io.erasure.recovery.reapply.ReapplicationStore.ReapplicationView;
import io.erasure.recovery.reapply.ReapplicationStore.SkippedKeyView;
import io.erasure.recovery.restore.FrozenSpecGuard;
import io.erasure.recovery.restore.RecoveryStore;
import io.erasure.support.tasks.DeletionTaskPublisher;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Re-applies a dataset's erasures after a restore: resolves the window (or the restored snapshot's cut-off),
 * reads the erasures from the log, cuts them into forward-deletion tasks at their original cut-offs (anonymising
 * tasks for anonymisations) and, unless it is a dry-run, publishes them. A key whose latest erasure a recovery restored
 * since is skipped ({@link ErasureLogScan#RECOVERED}): it was brought back on purpose. Every request, refused ones
 * after the window was resolved included, is kept with who asked.
 *
 * <p>Each erasure is re-applied under the spec its own run or request deleted under, frozen in the deletion log
 * ({@link FrozenSpecGuard}), so the tasks delete from that table and fan out to exactly that spec's copies; a spec the
 * caller sends is only compared with it, and a request with an erasure whose origin froze none publishes nothing.
 */
public class ErasureReapplier {

    private final ErasureWindows windows;
    private final ErasureLogScan log;
    private final RecoveryStore recoveries;
    private final DeletionTaskPublisher publisher;
    private final ReapplicationStore store;
    private final FrozenSpecGuard frozenSpecs;
    private final Clock clock;

    ErasureReapplier(
            ErasureWindows windows,
            ErasureLogScan log,
            RecoveryStore recoveries,
            DeletionTaskPublisher publisher,
            ReapplicationStore store,
            FrozenSpecGuard frozenSpecs,
            Clock clock) {
        this.windows = windows;
        this.frozenSpecs = frozenSpecs;
        this.recoveries = recoveries;
        this.log = log;
        this.publisher = publisher;
        this.store = store;
        this.clock = clock;
    }

    /**
     * Runs the request to the end; the answer lists the erased keys per cut-off and effect, and the skipped keys, which
     * the history does not keep.
     */
    public ReapplicationView reapply(ReapplicationRequest request, String requestedBy) {
        String clientRequestId = request.requestId() != null ? request.requestId() : "dry-run-" + UUID.randomUUID();
        String requestId = ReapplicationPlan.requestIdFor(request.dataset(), request.scopeText(), clientRequestId);
        ErasureWindow window = store.earlierWindow(requestId)
                .orElseGet(() -> windows.resolve(request, () -> frozenSpecs.latest(request.dataset(), request.spec())));
        UUID id = store.started(requestId, clientRequestId, requestedBy, request, window, clock.instant());
        try {
            ErasureLogScan.Erasures read = log.read(request.dataset(), window);
            // a key recovered after its erasure is live on purpose: deleting it again would undo the recovery
            ErasureLogScan.Erasures erasures = read.without(
                    recoveries.restoredRecords(read.erasures().stream()
                            .map(ErasureLogScan.Erasure::recordId)
                            .toList()),
                    ErasureLogScan.RECOVERED);
            Map<String, ReapplicationPlan.Under> specs = frozenSpecsOf(request, erasures);
            // an erasure whose origin froze no spec is reported, not guessed at; the others are still re-applied
            erasures = erasures.without(
                    erasures.erasures().stream()
                            .filter(e -> !specs.containsKey(e.originId()))
                            .map(ErasureLogScan.Erasure::recordId)
                            .collect(Collectors.toSet()),
                    ErasureLogScan.NO_FROZEN_SPEC);
            ReapplicationPlan plan = plan(requestId, request, erasures, specs);
            if (!request.dryRun()) {
                publisher.publish(plan.tasks());
            }
            store.finished(id, plan, erasures, request.dryRun(), clock.instant());
            ReapplicationView stored = store.find(id).orElseThrow();
            return stored.withGroups(plan.groups().stream()
                            .map(group -> new CutoffGroupView(
                                    group.cutoffMicros(),
                                    CutoffTimestamp.fromMicros(group.cutoffMicros()),
                                    group.clearColumns(),
                                    group.specDigest(),
                                    group.keys().size(),
                                    group.tasks().stream()
                                            .map(task -> task.taskId())
                                            .toList(),
                                    group.keys()))
                            .toList())
                    .withSkipped(erasures.skipped().stream()
                            .map(skipped -> new SkippedKeyView(skipped.key(), skipped.recordId(), skipped.reason()))
                            .toList());
        } catch (RuntimeException e) {
            store.failed(id, String.valueOf(e.getMessage()), clock.instant());
            throw e;
        }
    }

    /**
     * The frozen spec of each erasure's origin, all looked up before anything is published. An origin that froze none
     * ({@link FrozenSpecGuard.NoFrozenSpec}) is left out: its erasures are skipped and reported, while the rest are
     * re-applied (refusing the whole request would leave every restored key live). A spec the caller sent must be each
     * of them ({@link FrozenSpecGuard.SpecMismatch}).
     */
    private Map<String, ReapplicationPlan.Under> frozenSpecsOf(
            ReapplicationRequest request, ErasureLogScan.Erasures erasures) {
        FrozenSpecGuard.Resolver resolver = frozenSpecs.resolver();
        Map<String, ReapplicationPlan.Under> byOrigin = new HashMap<>();
        Set<String> unfrozen = new HashSet<>();
        for (ErasureLogScan.Erasure erasure : erasures.erasures()) {
            if (!byOrigin.containsKey(erasure.originId()) && !unfrozen.contains(erasure.originId())) {
                FrozenSpec frozen;
                try {
                    frozen = resolver.of(erasure.originId(), request.dataset());
                } catch (FrozenSpecGuard.NoFrozenSpec none) {
                    unfrozen.add(erasure.originId());
                    continue;
                }
                frozenSpecs.requireSame(request.spec(), frozen, "'" + erasure.originId() + "'");
                byOrigin.put(erasure.originId(), new ReapplicationPlan.Under(frozen.digest(), frozen.spec()));
            }
        }
        return byOrigin;
    }

    private static ReapplicationPlan plan(
            String requestId,
            ReapplicationRequest request,
            ErasureLogScan.Erasures erasures,
            Map<String, ReapplicationPlan.Under> specs) {
        try {
            return ReapplicationPlan.of(requestId, erasure -> specs.get(erasure.originId()), erasures);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "the frozen spec's keyColumns do not fit the keys (or cleared columns) the log"
                            + " holds for dataset '" + request.dataset() + "': " + e.getMessage(),
                    e);
        }
    }
}
