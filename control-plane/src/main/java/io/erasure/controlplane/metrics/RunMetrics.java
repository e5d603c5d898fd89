package io.erasure.controlplane.metrics;

import io.erasure.model.run.RunState;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Gauges for the dashboard and alerts, refreshed from the database (so every replica reports the same):
 * <ul>
 *   <li>{@code erasure.runs} by state;</li>
 *   <li>{@code erasure.dataset.deletable.rows}: rows validated as deletable and not yet deleted;</li>
 *   <li>{@code erasure.dataset.overdue.seconds}: how long the oldest of those has waited since validation;</li>
 *   <li>{@code erasure.dataset.last.audit.seconds}: epoch seconds of the last successful audit.</li>
 * </ul>
 */
@Component
public class RunMetrics {

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final MultiGauge runsByState;
    private final MultiGauge deletableRows;
    private final MultiGauge overdue;
    private final MultiGauge lastAudit;

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
}
