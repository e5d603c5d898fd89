package io.erasure.controlplane.forward;

import io.erasure.controlplane.refusal.Refusal;
import io.erasure.controlplane.refused.RefusedTaskTotals;
import io.erasure.controlplane.refused.RefusedTasks;
import io.erasure.controlplane.registry.ForwardPolicies;
import io.erasure.controlplane.registry.IdentifierSourceRegistry;
import io.erasure.model.check.Require;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.ForwardDeletionRequested;
import io.erasure.model.key.DeterministicId;
import io.erasure.support.access.Caller;
import io.erasure.support.access.CallerResolver;
import io.erasure.support.access.Role;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Forward deletion's API. Requests are posted by PUBLISHERs (upstream systems) and OPERATORs; held
 * requests are released by OPERATORs; a dataset's forward policy is set by its OWNER; reads are open to
 * the reading roles.
 */
@RestController
public class ForwardController {

    private final ForwardIntake intake;
    private final HeldRequests held;
    private final DeletionRequests requests;
    private final ForwardTargets targets;
    private final ForwardPolicies policies;
    private final IdentifierSourceRegistry sources;
    private final CallerResolver callers;
    private final RefusedTaskTotals refused;
    private final Clock clock;

    public ForwardController(
            ForwardIntake intake,
            HeldRequests held,
            DeletionRequests requests,
            ForwardTargets targets,
            ForwardPolicies policies,
            IdentifierSourceRegistry sources,
            CallerResolver callers,
            RefusedTaskTotals refused,
            Clock clock) {
        this.intake = intake;
        this.held = held;
        this.requests = requests;
        this.targets = targets;
        this.policies = policies;
        this.sources = sources;
        this.callers = callers;
        this.refused = refused;
        this.clock = clock;
    }

    /**
     * 202 for a new request (TOMBSTONED, PURGED at once when nothing is addressable, or HELD), 200 for a
     * repeat of the same (type, id, version), 409 for a version not newer than the identifier's current one.
     * The event id is derived from (type, id, version), so a client's retry is the same event.
     */
    @PostMapping("/api/forward-requests")
    public ResponseEntity<IntakeResult> submit(@RequestBody ForwardRequestBody body) {
        Caller caller = callers.current();
        caller.requireAny("publishing forward-deletion requests", Role.PUBLISHER, Role.OPERATOR);
        if (sources.get(body.aggregateType()).isEmpty()) {
            throw Refusal.badRequest(
                    "aggregateType '" + body.aggregateType() + "' is not a registered identifier source;"
                            + " register it with POST /api/identifier-sources or name one that is");
        }
        Instant now = clock.instant();
        ForwardDeletionRequested payload = new ForwardDeletionRequested(
                body.aggregateType(),
                body.aggregateId(),
                body.version(),
                body.tombstonedAt() == null ? now : body.tombstonedAt(),
                body.childIds(),
                caller.name());
        UUID eventId = DeterministicId.nameBasedUuid(
                "forward-rest", body.aggregateType(), body.aggregateId(), Long.toString(body.version()));
        EventEnvelope event = EventEnvelope.of(payload, null, eventId, clock).withEventId(eventId);
        IntakeResult result = intake.accept(event, true);
        HttpStatus status = switch (result.outcome()) {
            case ACCEPTED, HELD -> HttpStatus.ACCEPTED;
            case DUPLICATE -> HttpStatus.OK;
            case STALE, LOOP -> HttpStatus.CONFLICT;
        };
        return ResponseEntity.status(status).body(result);
    }

    @GetMapping("/api/forward-requests/{id}")
    public RequestView get(@PathVariable String id) {
        DeletionRequest request = requests.find(id).orElseThrow(() -> Refusal.notFound("forward request '" + id + "'"));
        return RequestView.of(request, targets.of(id), refused.ofRequest(id).orElse(null));
    }

    /** Newest first, without targets; filter by state, aggregate type or id. */
    @GetMapping("/api/forward-requests")
    public List<RequestView> list(
            @RequestParam(required = false) String state,
            @RequestParam(required = false) String aggregateType,
            @RequestParam(required = false) String aggregateId,
            @RequestParam(defaultValue = "100") int limit) {
        RequestState parsed = parseState(state);
        List<DeletionRequest> found = requests.list(parsed, aggregateType, aggregateId, limit);
        Map<String, RefusedTasks> refusedTasks =
                refused.ofRequests(found.stream().map(DeletionRequest::id).toList());
        return found.stream()
                .map(request -> RequestView.of(request, null, refusedTasks.get(request.id())))
                .toList();
    }

    @PostMapping("/api/forward-requests/held/approve")
    public HeldRequests.Approval approveHeld(@RequestParam(required = false) String aggregateType) {
        return held.approve(aggregateType, callers.current());
    }

    @PutMapping("/api/datasets/{name}/forward-policy")
    public ForwardPolicies.Policy setPolicy(@PathVariable String name, @RequestBody ForwardPolicies.PolicyBody body) {
        return policies.set(name, body, callers.current());
    }

    @GetMapping("/api/datasets/{name}/forward-policy")
    public ForwardPolicies.Policy policy(@PathVariable String name) {
        return policies.get(name);
    }

    private static RequestState parseState(String state) {
        if (state == null) {
            return null;
        }
        try {
            return RequestState.valueOf(state.trim().toUpperCase());
        } catch (IllegalArgumentException e) {
            throw Refusal.badRequest(
                    "state must be one of " + List.of(RequestState.values()) + ", got " + Require.echo(state));
        }
    }
}
