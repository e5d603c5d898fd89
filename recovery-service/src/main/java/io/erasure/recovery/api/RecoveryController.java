package io.erasure.recovery.api;

import io.erasure.model.check.Require;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.recovery.RecoveryScope;
import io.erasure.recovery.restore.FrozenSpecGuard;
import io.erasure.recovery.restore.RecoveryItem;
import io.erasure.recovery.restore.RecoveryLiveness;
import io.erasure.recovery.restore.RecoveryRunner;
import io.erasure.recovery.restore.RecoveryStore;
import io.erasure.support.access.Caller;
import io.erasure.support.access.CallerResolver;
import io.erasure.support.access.Role;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Recoveries (RECOVERY role): by keys, by time window or by run. Run a dry-run first: it reports per
 * record what would be restored, what conflicts with newer data and what has expired, and writes
 * nothing. A request runs in the background; poll it for progress and read its per-record outcomes.
 */
@RestController
@RequestMapping("/api/recoveries")
public class RecoveryController {

    /**
     * @param spec optional, best omitted: every record is restored under the spec its run or request deleted it under,
     *             frozen in the deletion log ({@link FrozenSpecGuard}). Sent, it must be that frozen spec (for a run,
     *             the one of the dataset it names; by keys or window, every revision the dataset's log holds), or the
     *             request is refused with the fields that differ; its name must be the scope's dataset
     */
    public record CreateRecovery(RecoveryScope scope, DatasetSpec spec, Boolean dryRun, String reason) {
        public CreateRecovery {
            Require.nonNull("scope (type keys, timeWindow or run)", scope);
            Require.nonBlank("reason (why these rows are restored, for the record)", reason);
            String dataset = scope instanceof RecoveryScope.ByKeys k
                    ? k.dataset()
                    : scope instanceof RecoveryScope.ByTimeWindow w ? w.dataset() : null;
            if (spec != null && dataset != null && !dataset.equals(spec.name())) {
                throw new IllegalArgumentException(
                        "spec.name '" + spec.name() + "' must be the scope's dataset '" + dataset + "'");
            }
            dryRun = dryRun == null || dryRun; // a recovery is a dry-run unless the caller says otherwise
        }
    }

    private final RecoveryStore store;
    private final RecoveryRunner runner;
    private final ExecutorService workers;
    private final CallerResolver callers;
    private final FrozenSpecGuard frozenSpecs;
    private final RecoveryLiveness liveness;
    private final Clock clock;

    public RecoveryController(
            RecoveryStore store,
            RecoveryRunner runner,
            ExecutorService workers,
            CallerResolver callers,
            FrozenSpecGuard frozenSpecs,
            RecoveryLiveness liveness,
            Clock clock) {
        this.store = store;
        this.liveness = liveness;
        this.frozenSpecs = frozenSpecs;
        this.runner = runner;
        this.workers = workers;
        this.callers = callers;
        this.clock = clock;
    }

    @PostMapping
    @ResponseStatus(HttpStatus.ACCEPTED)
    public RecoveryStore.RequestView create(@RequestBody CreateRecovery request) {
        Caller caller = callers.current();
        caller.requireAny("a recovery", Role.RECOVERY);
        // a spec sent must be the frozen one; without one, the run resolves each record's (and fails where there is
        // none)
        String dataset = request.spec() != null
                ? frozenSpecs.primary(request.scope(), request.spec()).name()
                : request.scope() instanceof RecoveryScope.ByKeys k
                        ? k.dataset()
                        : request.scope() instanceof RecoveryScope.ByTimeWindow w ? w.dataset() : null;
        UUID id = store.create(
                caller.name(),
                request.reason(),
                request.scope(),
                dataset,
                request.spec(),
                request.dryRun(),
                clock.instant());
        workers.submit(liveness.tracked(id, () -> runner.run(id, request.dryRun())));
        return view(id);
    }

    /** The history of recoveries, newest first, with who asked. */
    @GetMapping
    public List<RecoveryStore.RequestView> list(
            @RequestParam(defaultValue = "50") int limit, @RequestParam(defaultValue = "0") int offset) {
        return store.list(Math.min(Math.max(limit, 1), 500), Math.max(offset, 0));
    }

    @GetMapping("/{id}")
    public RecoveryStore.RequestView get(@PathVariable UUID id) {
        return view(id);
    }

    @GetMapping("/{id}/outcomes")
    public List<RecoveryItem> outcomes(
            @PathVariable UUID id,
            @RequestParam(defaultValue = "500") int limit,
            @RequestParam(defaultValue = "0") int offset) {
        view(id);
        return store.outcomes(id, Math.min(Math.max(limit, 1), 5_000), Math.max(offset, 0));
    }

    private RecoveryStore.RequestView view(UUID id) {
        return store.find(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no recovery " + id));
    }
}
