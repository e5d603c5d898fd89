package io.erasure.controlplane.schedule;

import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.controlplane.registry.Schedules;
import io.erasure.controlplane.run.RunService;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Starts the runs whose cron has fired. With several control-plane replicas on one database exactly
 * one starts each: a replica claims a due dataset by locking its row ({@code FOR UPDATE SKIP LOCKED})
 * and advancing its next fire time in one transaction, so another replica either skips the locked row
 * or finds it no longer due. The run is started after the claim commits, in its own transaction, so a
 * dataset whose start fails (reason in the actions log) never blocks the others; a crash between
 * claim and start skips that one firing, never doubles it.
 */
@Component
public class RunScheduler {

    private static final String CLAIM_DUE = """
            SELECT name, spec ->> 'schedule' AS schedule FROM datasets
            WHERE enabled AND next_run_at <= ? ORDER BY next_run_at LIMIT 1 FOR UPDATE SKIP LOCKED""";

    private static final Logger log = LoggerFactory.getLogger(RunScheduler.class);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final RunService runs;
    private final ActionsLog actions;
    private final Clock clock;

    public RunScheduler(
            JdbcTemplate jdbc, TransactionTemplate transactions, RunService runs, ActionsLog actions, Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.runs = runs;
        this.actions = actions;
        this.clock = clock;
    }

    @Scheduled(
            fixedDelayString = "${erasure.control-plane.scheduler-interval:10s}",
            initialDelayString = "${erasure.control-plane.scheduler-initial-delay:5s}")
    public void tick() {
        try {
            startDueRuns();
        } catch (RuntimeException e) {
            log.warn("scheduler tick failed, next tick retries: {}", e.toString());
        }
    }

    /** Starts one run per due dataset; returns how many this replica started. */
    public int startDueRuns() {
        int started = 0;
        String dataset;
        while ((dataset = transactions.execute(status -> claimNextDue())) != null) {
            try {
                if (runs.startScheduled(dataset).isPresent()) {
                    started++;
                }
            } catch (RuntimeException e) {
                String name = dataset;
                transactions.executeWithoutResult(status -> actions.record(
                        RunService.SCHEDULER,
                        "run.start-failed",
                        "dataset:" + name,
                        Map.of("reason", String.valueOf(e.getMessage()))));
                log.warn("scheduled run of {} could not start: {}", dataset, e.toString());
            }
        }
        return started;
    }

    /** The name of a due dataset whose firing this replica has claimed, or null if none is due. */
    private String claimNextDue() {
        Instant now = clock.instant();
        List<Due> due = jdbc.query(
                CLAIM_DUE, (rs, i) -> new Due(rs.getString("name"), rs.getString("schedule")), Timestamp.from(now));
        if (due.isEmpty()) {
            return null;
        }
        Due dataset = due.get(0);
        jdbc.update(
                "UPDATE datasets SET next_run_at = ? WHERE name = ?",
                Timestamp.from(Schedules.nextAfter(dataset.schedule(), now)),
                dataset.name());
        return dataset.name();
    }

    private record Due(String name, String schedule) {}
}
