package io.erasure.recovery.restore;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Keeps the recoveries this instance runs or has queued visibly alive ({@code heartbeat_at}, several times per
 * {@code erasure.recovery.abandoned-after}), and fails any unfinished recovery, of any instance, not heard of for that
 * long (default 2 minutes): its service was killed or restarted under it. The failure says to ask again, which is safe:
 * restores never overwrite, so a second request restores what the first did not and reports the rest as already
 * restored. Before, such a request stayed RUNNING for ever (found by a chaos trial that kills recovery-service).
 */
@Component
public class RecoveryLiveness implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RecoveryLiveness.class);
    static final String ABANDONED = "interrupted: the recovery service stopped while this recovery ran (killed or"
            + " restarted); ask for it again: restores never overwrite, so rows it restored are reported as already"
            + " restored";

    private final RecoveryStore store;
    private final Duration abandonedAfter;
    private final Set<UUID> alive = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "recovery-liveness");
        thread.setDaemon(true);
        return thread;
    });

    public RecoveryLiveness(
            RecoveryStore store, @Value("${erasure.recovery.abandoned-after:2m}") Duration abandonedAfter) {
        if (abandonedAfter.compareTo(Duration.ofSeconds(4)) < 0) {
            throw new IllegalArgumentException(
                    "erasure.recovery.abandoned-after must be at least 4s, got " + abandonedAfter);
        }
        this.store = store;
        this.abandonedAfter = abandonedAfter;
        long every = Math.min(20_000, abandonedAfter.toMillis() / 4);
        beats.scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
    }

    /** {@code work} for request {@code id}, kept alive from now (queued included) until it ends. */
    public Runnable tracked(UUID id, Runnable work) {
        alive.add(id);
        try {
            // at once, not at the next beat: the sweep must never judge it by its request time alone
            store.heartbeat(Set.of(id));
        } catch (RuntimeException e) {
            log.warn("recovery heartbeat failed (retried at the next beat): {}", e.getMessage());
        }
        return () -> {
            try {
                work.run();
            } finally {
                alive.remove(id);
            }
        };
    }

    /** One heartbeat of this instance's requests, then the sweep of everyone's abandoned ones. */
    void beat() {
        try {
            store.heartbeat(Set.copyOf(alive));
            int failed = store.failAbandoned(abandonedAfter, ABANDONED);
            if (failed > 0) {
                log.warn(
                        "{} recoveries not heard of for {} failed as interrupted; they can be asked for again",
                        failed,
                        abandonedAfter);
            }
        } catch (RuntimeException e) {
            log.warn("recovery heartbeat failed (retried at the next beat): {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        beats.shutdownNow();
    }
}
