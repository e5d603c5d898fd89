package io.erasure.controlplane.forward;

import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.ForwardDeletionRequested;
import io.erasure.model.key.DeterministicId;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Turns "identifier deleted" events into deletion requests, synchronously TOMBSTONED (or HELD in a
 * burst), in one transaction with the targets and the outbox rows of their tasks.
 *
 * <p>Checks, in order: the event that made the entity's current version again (duplicate); an event in
 * a chain this control plane originated (loop: its own deletion echoed back by some service); a version
 * not newer than the entity's (out-of-order). Each is dropped and counted. The version is then moved by
 * compare-and-set, so two concurrent deliveries cannot both win.
 */
@Service
public class ForwardIntake {

    private static final Logger log = LoggerFactory.getLogger(ForwardIntake.class);

    private final JdbcTemplate jdbc;
    private final DeletionRequests requests;
    private final ForwardTargets targets;
    private final ForwardMetrics metrics;
    private final ForwardProperties properties;
    private final Clock clock;

    public ForwardIntake(
            JdbcTemplate jdbc,
            DeletionRequests requests,
            ForwardTargets targets,
            ForwardMetrics metrics,
            ForwardProperties properties,
            Clock clock) {
        this.jdbc = jdbc;
        this.requests = requests;
        this.targets = targets;
        this.metrics = metrics;
        this.properties = properties;
        this.clock = clock;
    }

    /**
     * The chain the deletion service stamps on the batch events of {@code requestId}'s tasks (the tasks carry
     * no chain of their own, so it is derived from the origin id, as for runs).
     */
    static UUID effectChainOf(String requestId) {
        return DeterministicId.nameBasedUuid("run-chain", requestId);
    }

    /**
     * @param startedHere true when this control plane started the event's chain (REST intake): the chain is
     *                    recorded as its own, so anything that comes back in it is recognised as a loop
     */
    @Transactional
    public IntakeResult accept(EventEnvelope event, boolean startedHere) {
        ForwardDeletionRequested payload = event.payloadAs(ForwardDeletionRequested.class);
        Instant now = clock.instant();
        Current current = current(payload.aggregateType(), payload.aggregateId());
        if (current != null && current.eventId().equals(event.eventId())) {
            return dropped(
                    IntakeOutcome.DUPLICATE,
                    current,
                    "event " + event.eventId() + " was already applied as request " + current.requestId());
        }
        if (!startedHere && originatedHere(event.originChainId())) {
            return dropped(
                    IntakeOutcome.LOOP,
                    current,
                    "event " + event.eventId() + " is in chain " + event.originChainId()
                            + ", which this control plane originated: dropped to cut the loop");
        }
        String requestId = DeletionRequests.idFor(event.eventId());
        if (current != null && current.version() >= payload.version()
                || !moveVersion(payload, event.eventId(), requestId, now)) {
            Current latest = current(payload.aggregateType(), payload.aggregateId());
            return dropped(
                    IntakeOutcome.STALE,
                    latest,
                    "version " + payload.version() + " of " + payload.aggregateType()
                            + " '" + payload.aggregateId() + "' is not newer than the current version "
                            + (latest == null ? "?" : latest.version()) + ": dropped (out-of-order delivery)");
        }
        long recent = requests.countSince(
                payload.aggregateType(), now.minus(properties.burst().window()));
        boolean held = recent >= properties.burst().maxPerWindow();
        // the cut-off never lies after intake: a row written after it survives even if the event claims a later time
        Instant cutoff = payload.tombstonedAt().isBefore(now) ? payload.tombstonedAt() : now;
        DeletionRequest request = new DeletionRequest(
                requestId,
                now,
                payload.aggregateType(),
                payload.aggregateId(),
                payload.version(),
                held ? RequestState.HELD : RequestState.TOMBSTONED,
                cutoff,
                held ? null : now,
                null,
                event.eventId(),
                event.originChainId(),
                payload.childIds(),
                payload.requestedBy(),
                held
                        ? "burst: " + recent + " requests of " + payload.aggregateType() + " within "
                                + properties.burst().window() + " (limit "
                                + properties.burst().maxPerWindow() + ")"
                        : null,
                null);
        requests.insert(request);
        recordChain(effectChainOf(requestId), requestId, now);
        if (startedHere) {
            recordChain(event.originChainId(), requestId, now);
        }
        if (held) {
            metrics.intake(IntakeOutcome.HELD);
            log.warn("request {} held for an OPERATOR: {}", requestId, request.heldReason());
            return new IntakeResult(IntakeOutcome.HELD, requestId, RequestState.HELD, request.heldReason());
        }
        RequestState state = startDeleting(request, now);
        metrics.intake(IntakeOutcome.ACCEPTED);
        return new IntakeResult(IntakeOutcome.ACCEPTED, requestId, state, null);
    }

    /** Publishes a TOMBSTONED request's targets; PURGED at once when none of them has anything to confirm. */
    RequestState startDeleting(DeletionRequest request, Instant now) {
        targets.publish(request);
        if (targets.allConfirmed(request.id())
                && requests.move(request.id(), RequestState.TOMBSTONED, RequestState.PURGED, now)) {
            metrics.purged(Duration.between(request.publishedAt() == null ? now : request.publishedAt(), now));
            return RequestState.PURGED;
        }
        return RequestState.TOMBSTONED;
    }

    private IntakeResult dropped(IntakeOutcome outcome, Current current, String message) {
        metrics.intake(outcome);
        log.info("{}", message);
        String requestId = current == null ? null : current.requestId();
        RequestState state = requestId == null
                ? null
                : requests.find(requestId).map(DeletionRequest::state).orElse(null);
        return new IntakeResult(outcome, requestId, state, message);
    }

    private Current current(String type, String id) {
        List<Current> rows = jdbc.query(
                "SELECT version, event_id, request_id FROM forward_entities WHERE aggregate_type = ?"
                        + " AND aggregate_id = ? FOR UPDATE",
                (rs, i) -> new Current(rs.getLong(1), rs.getObject(2, UUID.class), rs.getString(3)),
                type,
                id);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Compare-and-set of the entity's version: false when it is already at or past {@code payload.version()}. */
    private boolean moveVersion(ForwardDeletionRequested payload, UUID eventId, String requestId, Instant now) {
        return jdbc.update(
                        """
                        INSERT INTO forward_entities (aggregate_type, aggregate_id, version, event_id, request_id,
                            updated_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (aggregate_type, aggregate_id) DO UPDATE
                            SET version = EXCLUDED.version, event_id = EXCLUDED.event_id,
                                request_id = EXCLUDED.request_id, updated_at = EXCLUDED.updated_at
                            WHERE forward_entities.version < EXCLUDED.version""",
                        payload.aggregateType(),
                        payload.aggregateId(),
                        payload.version(),
                        eventId,
                        requestId,
                        Timestamp.from(now))
                == 1;
    }

    private boolean originatedHere(UUID chainId) {
        Integer found =
                jdbc.queryForObject("SELECT count(*) FROM forward_chains WHERE chain_id = ?", Integer.class, chainId);
        return found != null && found > 0;
    }

    private void recordChain(UUID chainId, String requestId, Instant now) {
        jdbc.update(
                "INSERT INTO forward_chains (chain_id, request_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                chainId,
                requestId,
                Timestamp.from(now));
    }

    private record Current(long version, UUID eventId, String requestId) {}
}
