package io.erasure.controlplane.metrics;

import io.erasure.model.run.RunState;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Gauges for the dashboard and alerts, refreshed from the database (so every replica reports the same):
 * <ul>
 *   <li>{@code erasure.runs} by state;</li>
 *   <li>{@code erasure.dataset.deletable.rows}: rows validated as deletable and not yet deleted;</li>
 *   <li>{@code erasure.dataset.overdue.seconds}: how long the oldest of those has waited since validation;</li>
 *   <li>{@code erasure.dataset.last.audit.seconds}: epoch seconds of the last successful audit;</li>
 *   <li>{@code erasure.runs.oldest.seconds} by state: how long the oldest run in each state that is not final has been
 *       in it (0 when none is), what "a run stuck in a state" alerts on.</li>
 * </ul>
 * and, recorded as runs complete, {@value #TIME_TO_DELETE}: from the moment a run's rows were known deletable (its
 * validation ended, AWAITING_APPROVAL or AUTHORIZED) to its COMPLETED, by dataset, with the buckets of the
 * time-to-delete SLO ({@link #SLO_BUCKETS}).
 */
@Component
public class RunMetrics {

    public static final String OLDEST = "erasure.runs.oldest.seconds";
    /** The states a run can still leave, quoted for SQL (enum names: no quoting needed beyond the quotes). */
    private static final String NOT_FINAL = Arrays.stream(RunState.values())
            .filter(state -> !state.isTerminal())
            .map(state -> "'" + state.name() + "'")
            .collect(Collectors.joining(", "));

    public static final String TIME_TO_DELETE = "erasure.run.time.to.delete";
    /** The time-to-delete buckets an SLO can be set on (the chart's rules use 24 h). */
    public static final List<Duration> SLO_BUCKETS = List.of(
            Duration.ofHours(1), Duration.ofHours(6), Duration.ofHours(24), Duration.ofDays(3), Duration.ofDays(7));

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final MultiGauge runsByState;
    private final MultiGauge deletableRows;
    private final MultiGauge overdue;
    private final MultiGauge lastAudit;
    private final MultiGauge oldest;
    private final MeterRegistry registry;

    public RunMetrics(JdbcTemplate jdbc, Clock clock, MeterRegistry registry) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.runsByState =
                MultiGauge.builder("erasure.runs").description("runs by state").register(registry);
        this.deletableRows = MultiGauge.builder("erasure.dataset.deletable.rows")
                .description("rows validated as deletable and not yet deleted")
                .register(registry);
        this.overdue = MultiGauge.builder("erasure.dataset.overdue.seconds")
                .description("age of the oldest validated deletable set still waiting")
                .baseUnit("seconds")
                .register(registry);
        this.registry = registry;
        this.oldest = MultiGauge.builder(OLDEST)
                .description("how long the oldest run in each state that is not final has been in it")
                .baseUnit("seconds")
                .register(registry);
        this.lastAudit = MultiGauge.builder("erasure.dataset.last.audit.seconds")
                .description("epoch seconds of the last successful audit")
                .baseUnit("seconds")
                .register(registry);
    }

    @Scheduled(fixedDelayString = "${erasure.control-plane.metrics-interval:15s}", initialDelay = 0)
    public void refresh() {
        Map<String, Long> counts = new HashMap<>();
        jdbc.query("SELECT state, count(*) AS n FROM runs GROUP BY state", rs -> {
            counts.put(rs.getString("state"), rs.getLong("n"));
        });
        List<MultiGauge.Row<?>> states = new ArrayList<>();
        for (RunState state : RunState.values()) {
            states.add(MultiGauge.Row.of(Tags.of("state", state.name()), counts.getOrDefault(state.name(), 0L)));
        }
        runsByState.register(states, true);

        Map<String, Long> oldestSince = new HashMap<>();
        jdbc.query("""
                SELECT state, min((steps ->> state)::timestamptz) AS since FROM runs
                WHERE state IN (%s) AND steps ? state GROUP BY state""".formatted(NOT_FINAL), rs -> {
            oldestSince.put(
                    rs.getString("state"), rs.getTimestamp("since").toInstant().getEpochSecond());
        });
        List<MultiGauge.Row<?>> stuck = new ArrayList<>();
        for (RunState state : RunState.values()) {
            if (!state.isTerminal()) {
                Long since = oldestSince.get(state.name());
                stuck.add(MultiGauge.Row.of(
                        Tags.of("state", state.name()),
                        since == null ? 0 : Math.max(0, clock.instant().getEpochSecond() - since)));
            }
        }
        oldest.register(stuck, true);

        long now = clock.instant().getEpochSecond();
        List<MultiGauge.Row<?>> deletable = new ArrayList<>();
        List<MultiGauge.Row<?>> waiting = new ArrayList<>();
        jdbc.query("""
                SELECT dataset, sum(final_count) AS rows,
                       min(coalesce(steps ->> 'AWAITING_APPROVAL', steps ->> 'AUTHORIZED'))::timestamptz AS validated_at
                FROM runs WHERE state IN ('AWAITING_APPROVAL', 'AUTHORIZED', 'DELETING') AND final_count > 0
                GROUP BY dataset""", rs -> {
            Tags tags = Tags.of("dataset", rs.getString("dataset"));
            deletable.add(MultiGauge.Row.of(tags, rs.getLong("rows")));
            waiting.add(MultiGauge.Row.of(
                    tags,
                    Math.max(
                            0, now - rs.getTimestamp("validated_at").toInstant().getEpochSecond())));
        });
        deletableRows.register(deletable, true);
        overdue.register(waiting, true);

        List<MultiGauge.Row<?>> audits = new ArrayList<>();
        jdbc.query("""
                SELECT dataset, max((steps ->> 'VALIDATING')::timestamptz) AS audited_at FROM runs
                WHERE steps ? 'VALIDATING' GROUP BY dataset""", rs -> {
            audits.add(MultiGauge.Row.of(
                    Tags.of("dataset", rs.getString("dataset")),
                    rs.getTimestamp("audited_at").toInstant().getEpochSecond()));
        });
        lastAudit.register(audits, true);
    }

    /**
     * Records a run that completed at {@code at}: how long after its rows were known deletable ({@code deletableSince},
     * when its validation ended), by dataset.
     */
    public void runCompleted(String dataset, Instant deletableSince, Instant at) {
        Timer.builder(TIME_TO_DELETE)
                .description("from a run's validation to its COMPLETED (rows known deletable until deleted)")
                .tag("dataset", dataset)
                .serviceLevelObjectives(SLO_BUCKETS.toArray(Duration[]::new))
                .register(registry)
                .record(Duration.between(deletableSince, at.isBefore(deletableSince) ? deletableSince : at));
    }
}
