package io.erasure.controlplane.forward;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Finishes what a lost task or a killed consumer left: TOMBSTONED requests whose tasks went out more
 * than {@code erasure.forward.reconcile-after} ago have their pending tasks published again (same task
 * ids, so the deletion service applies each once). It scans from a watermark over (published_at, id),
 * never from the beginning; a request it re-published goes into {@code forward_retries} and is re-published
 * again with a doubling delay (capped at {@code alert-after} / 4) until it resolves, so a task lost twice is
 * still finished. Those unresolved after {@code erasure.forward.alert-after} are counted in the gauge
 * {@code erasure.forward.unresolved}.
 */
@Component
public class ForwardReconciler {

    private static final String ADVANCE_WATERMARK = """
            INSERT INTO forward_reconcile_watermark (name, published_at, request_id) VALUES (?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET published_at = EXCLUDED.published_at,
                                             request_id = EXCLUDED.request_id""";
    private static final String DUE_RETRIES = """
            SELECT request_id, attempts FROM forward_retries WHERE next_at <= ? ORDER BY next_at LIMIT ?
            FOR UPDATE SKIP LOCKED""";

    private static final Logger log = LoggerFactory.getLogger(ForwardReconciler.class);
    private static final String WATERMARK = "republish";
    private static final int PAGE = 200;

    private final JdbcTemplate jdbc;
    private final DeletionRequests requests;
    private final ForwardTargets targets;
    private final ForwardMetrics metrics;
    private final ForwardProperties properties;
    private final TransactionTemplate transactions;
    private final Clock clock;

    public ForwardReconciler(
            JdbcTemplate jdbc,
            DeletionRequests requests,
            ForwardTargets targets,
            ForwardMetrics metrics,
            ForwardProperties properties,
            TransactionTemplate transactions,
            Clock clock) {
        this.jdbc = jdbc;
        this.requests = requests;
        this.targets = targets;
        this.metrics = metrics;
        this.properties = properties;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Scheduled(
            initialDelayString = "${erasure.forward.reconcile-initial-delay:1m}",
            fixedDelayString = "${erasure.forward.reconcile-interval:1m}")
    public void reconcileQuietly() {
        try {
            reconcile(clock.instant());
        } catch (RuntimeException e) {
            log.warn("forward reconciliation failed, will retry: {}", e.toString());
        }
    }

    /** One pass as of {@code now}; returns how many requests had their tasks re-published. */
    public synchronized int reconcile(Instant now) {
        int requestsRepublished = 0;
        while (true) {
            Integer page = transactions.execute(status -> republishPage(now));
            if (page == null || page == 0) {
                break;
            }
            requestsRepublished += page;
        }
        while (true) {
            Integer page = transactions.execute(status -> retryPage(now));
            if (page == null || page == 0) {
                break;
            }
            requestsRepublished += page;
        }
        metrics.unresolved(
                requests.countUnresolvedBefore(now.minus(properties.alertAfter())),
                requests.oldestUnresolvedPublishedAt()
                        .map(publishedAt -> Duration.between(publishedAt, now))
                        .orElse(Duration.ZERO));
        return requestsRepublished;
    }

    private int republishPage(Instant now) {
        List<Watermark> marks = jdbc.query(
                "SELECT published_at, request_id FROM forward_reconcile_watermark WHERE name = ? FOR UPDATE",
                (rs, i) -> new Watermark(rs.getTimestamp(1).toInstant(), rs.getString(2)),
                WATERMARK);
        Watermark mark = marks.isEmpty() ? new Watermark(Instant.EPOCH, "") : marks.get(0);
        List<DeletionRequest> stuck = requests.unresolvedAfter(
                mark.publishedAt(), mark.requestId(), now.minus(properties.reconcileAfter()), PAGE);
        for (DeletionRequest request : stuck) {
            int tasks = targets.republish(request);
            jdbc.update(
                    "INSERT INTO forward_retries (request_id, attempts, next_at) VALUES (?, 1, ?) ON CONFLICT"
                            + " DO NOTHING",
                    request.id(),
                    Timestamp.from(now.plus(retryDelay(1))));
            log.info(
                    "request {} unresolved since {}: {} tasks re-published",
                    request.id(),
                    request.publishedAt(),
                    tasks);
        }
        if (!stuck.isEmpty()) {
            DeletionRequest last = stuck.get(stuck.size() - 1);
            jdbc.update(ADVANCE_WATERMARK, WATERMARK, Timestamp.from(last.publishedAt()), last.id());
        }
        return stuck.size();
    }

    /** Re-publishes the requests whose next retry is due; a resolved one leaves the retry table. */
    private int retryPage(Instant now) {
        List<Retry> due =
                jdbc.query(DUE_RETRIES, (rs, i) -> new Retry(rs.getString(1), rs.getInt(2)), Timestamp.from(now), PAGE);
        for (Retry retry : due) {
            DeletionRequest request = requests.lock(retry.requestId()).orElse(null);
            if (request == null || request.state() != RequestState.TOMBSTONED) {
                jdbc.update("DELETE FROM forward_retries WHERE request_id = ?", retry.requestId());
                continue;
            }
            int tasks = targets.republish(request);
            int attempts = retry.attempts() + 1;
            jdbc.update(
                    "UPDATE forward_retries SET attempts = ?, next_at = ? WHERE request_id = ?",
                    attempts,
                    Timestamp.from(now.plus(retryDelay(attempts))),
                    retry.requestId());
            log.info("request {} still unresolved: {} tasks re-published (attempt {})", request.id(), tasks, attempts);
        }
        return due.size();
    }

    /**
     * reconcile-after doubled per attempt, at most a quarter of alert-after (so an alerting request is still retried).
     */
    Duration retryDelay(int attempts) {
        Duration cap = properties.alertAfter().dividedBy(4);
        Duration delay = properties.reconcileAfter().multipliedBy(1L << Math.min(attempts, 20));
        return delay.compareTo(cap) > 0 ? cap : delay;
    }

    private record Watermark(Instant publishedAt, String requestId) {}

    private record Retry(String requestId, int attempts) {}
}
