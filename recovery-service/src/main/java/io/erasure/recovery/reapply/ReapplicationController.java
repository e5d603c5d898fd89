package io.erasure.recovery.reapply;

import io.erasure.recovery.reapply.ReapplicationStore.ReapplicationView;
import io.erasure.support.access.Caller;
import io.erasure.support.access.CallerResolver;
import io.erasure.support.access.Role;
import java.util.List;
import java.util.UUID;
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
 * Re-applying erasures after a restore (RECOVERY or OPERATOR role). A restored table or cluster brings back rows
 * erased since its backup was taken; this re-publishes the log's erasures of the dataset as deletion tasks at their
 * original cut-offs, so rows written after an erasure survive; an anonymisation is re-applied as one (same columns
 * cleared, row kept). A dry-run (the default) reports the keys per cut-off and cleared columns, and publishes nothing.
 */
@RestController
@RequestMapping("/api/reapplications")
public class ReapplicationController {

    private final ErasureReapplier reapplier;
    private final ReapplicationStore store;
    private final CallerResolver callers;

    public ReapplicationController(ErasureReapplier reapplier, ReapplicationStore store, CallerResolver callers) {
        this.reapplier = reapplier;
        this.store = store;
        this.callers = callers;
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    public ReapplicationView create(@RequestBody ReapplicationRequest request) {
        Caller caller = callers.current();
        caller.requireAny("re-applying erasures", Role.RECOVERY, Role.OPERATOR);
        return reapplier.reapply(request, caller.name());
    }

    /** The history, newest first, with who asked. */
    @GetMapping
    public List<ReapplicationView> list(
            @RequestParam(defaultValue = "50") int limit, @RequestParam(defaultValue = "0") int offset) {
        callers.current().requireAny("reading reapplications", Role.RECOVERY, Role.OPERATOR);
        return store.list(Math.min(Math.max(limit, 1), 500), Math.max(offset, 0));
    }

    @GetMapping("/{id}")
    public ReapplicationView get(@PathVariable UUID id) {
        callers.current().requireAny("reading reapplications", Role.RECOVERY, Role.OPERATOR);
        return store.find(id)
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no reapplication " + id));
    }
}
