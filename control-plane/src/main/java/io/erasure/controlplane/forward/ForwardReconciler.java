package io.erasure.controlplane.forward;

import java.sql.Timestamp;
import java.time.Clock;
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
 * never from the beginning, so each stuck request is re-published once; those still unresolved after
 * {@code erasure.forward.alert-after} are counted in the gauge {@code erasure.forward.unresolved}.
 */
@Component
public class ForwardReconciler {

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

    public ForwardReconciler(JdbcTemplate jdbc, DeletionRequests requests, ForwardTargets targets, ForwardMetrics metrics,
                             ForwardProperties properties, TransactionTemplate transactions, Clock clock) {
        this.jdbc = jdbc;
        this.requests = requests;
        this.targets = targets;
        this.metrics = metrics;
        this.properties = properties;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Scheduled(initialDelayString = "${erasure.forward.reconcile-initial-delay:1m}",
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
        metrics.unresolved(requests.countUnresolvedBefore(now.minus(properties.alertAfter())));
        return requestsRepublished;
    }

    private int republishPage(Instant now) {
        List<Watermark> marks = jdbc.query(
                "SELECT published_at, request_id FROM forward_reconcile_watermark WHERE name = ? FOR UPDATE",
                (rs, i) -> new Watermark(rs.getTimestamp(1).toInstant(), rs.getString(2)), WATERMARK);
        Watermark mark = marks.isEmpty() ? new Watermark(Instant.EPOCH, "") : marks.get(0);
        List<DeletionRequest> stuck = requests.unresolvedAfter(mark.publishedAt(), mark.requestId(),
                now.minus(properties.reconcileAfter()), PAGE);
        for (DeletionRequest request : stuck) {
            int tasks = targets.republish(request);
            log.info("request {} unresolved since {}: {} tasks re-published", request.id(), request.publishedAt(), tasks);
        }
        if (!stuck.isEmpty()) {
            DeletionRequest last = stuck.get(stuck.size() - 1);
            jdbc.update("""
                            INSERT INTO forward_reconcile_watermark (name, published_at, request_id) VALUES (?, ?, ?)
                            ON CONFLICT (name) DO UPDATE SET published_at = EXCLUDED.published_at,
                                                             request_id = EXCLUDED.request_id""",
                    WATERMARK, Timestamp.from(last.publishedAt()), last.id());
        }
        return stuck.size();
    }

    private record Watermark(Instant publishedAt, String requestId) {
    }
}
