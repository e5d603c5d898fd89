package io.erasure.controlplane.forward;

import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.support.access.Caller;
import io.erasure.support.access.Role;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Requests held by burst protection, released by an OPERATOR. A request the approver made themselves
 * stays held for another OPERATOR (DESIGN invariant 5: the approver is not the requester). Their
 * cut-off stays the time they were received.
 */
@Service
public class HeldRequests {

    private static final int MAX_PER_APPROVAL = 10_000;

    private final DeletionRequests requests;
    private final ForwardIntake intake;
    private final ActionsLog actions;
    private final Clock clock;

    public HeldRequests(DeletionRequests requests, ForwardIntake intake, ActionsLog actions, Clock clock) {
        this.requests = requests;
        this.intake = intake;
        this.actions = actions;
        this.clock = clock;
    }

    /** Releases the held requests (of {@code aggregateType} when not null), oldest first. */
    @Transactional
    public Approval approve(String aggregateType, Caller caller) {
        caller.requireAny("approving held forward-deletion requests", Role.OPERATOR);
        Instant now = clock.instant();
        int approved = 0;
        int ownSkipped = 0;
        for (DeletionRequest held : requests.held(aggregateType, MAX_PER_APPROVAL)) {
            if (held.requestedBy().equals(caller.name())) {
                ownSkipped++;
                continue;
            }
            if (requests.approve(held.id(), caller.name(), now)) {
                intake.startDeleting(held, now);
                approved++;
            }
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("approved", approved);
        details.put("leftForAnotherOperator", ownSkipped);
        if (aggregateType != null) {
            details.put("aggregateType", aggregateType);
        }
        actions.record(caller.name(), "forward.held-approved", "forward-requests", details);
        return new Approval(approved, ownSkipped);
    }

    /**
     * @param approved               requests released to TOMBSTONED and published
     * @param leftForAnotherOperator held requests this caller made, which another OPERATOR must approve
     */
    public record Approval(int approved, int leftForAnotherOperator) {}
}
