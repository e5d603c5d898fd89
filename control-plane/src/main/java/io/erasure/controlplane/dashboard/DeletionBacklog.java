package io.erasure.controlplane.dashboard;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/**
 * Deletable rows, waiting time and the last audit per dataset, and runs per state, as the control plane's
 * gauges ({@code io.erasure.controlplane.metrics.RunMetrics}) last computed them from the database: the
 * dashboard shows the numbers the alerts see, without a query of its own.
 */
@Component
public class DeletionBacklog {

    // the names RunMetrics registers
    static final String RUNS = "erasure.runs";
    static final String DELETABLE = "erasure.dataset.deletable.rows";
    static final String WAITING = "erasure.dataset.overdue.seconds";
    static final String LAST_AUDIT = "erasure.dataset.last.audit.seconds";
    /** Registered by forward/ForwardMetrics (by name, so the dashboard needs nothing from that package). */
    static final String FORWARD_UNRESOLVED = "erasure.forward.unresolved";

    private final MeterRegistry meters;
    private final Clock clock;
    private final Duration overdueAfter;

    public DeletionBacklog(MeterRegistry meters, Clock clock, DashboardProperties properties) {
        this.meters = meters;
        this.clock = clock;
        this.overdueAfter = properties.overdueAfter();
    }

    public Summary summary() {
        Map<String, Long> runs = new TreeMap<>();
        for (Gauge gauge : meters.find(RUNS).gauges()) {
            runs.put(gauge.getId().getTag("state"), (long) gauge.value());
        }
        Map<String, Long> deletable = byDataset(DELETABLE);
        Map<String, Long> waiting = byDataset(WAITING);
        Map<String, Long> audited = byDataset(LAST_AUDIT);
        Map<String, DatasetBacklog> datasets = new TreeMap<>();
        for (String dataset : union(deletable, waiting, audited)) {
            long rows = deletable.getOrDefault(dataset, 0L);
            Long waited = waiting.get(dataset);
            Long lastAudit = audited.get(dataset);
            datasets.put(
                    dataset,
                    new DatasetBacklog(
                            rows,
                            waited,
                            rows > 0 && waited != null && waited > overdueAfter.toSeconds(),
                            lastAudit == null ? null : Instant.ofEpochSecond(lastAudit)));
        }
        Gauge unresolved = meters.find(FORWARD_UNRESOLVED).gauge();
        return new Summary(
                clock.instant(),
                overdueAfter.toSeconds(),
                runs,
                datasets,
                unresolved == null ? 0 : (long) unresolved.value());
    }

    private Map<String, Long> byDataset(String name) {
        Map<String, Long> values = new TreeMap<>();
        for (Gauge gauge : meters.find(name).gauges()) {
            double value = gauge.value();
            if (!Double.isNaN(value)) {
                values.put(gauge.getId().getTag("dataset"), (long) value);
            }
        }
        return values;
    }

    @SafeVarargs
    private static Iterable<String> union(Map<String, Long>... maps) {
        TreeMap<String, Boolean> names = new TreeMap<>();
        for (Map<String, Long> map : maps) {
            map.keySet().forEach(name -> names.put(name, true));
        }
        return names.keySet();
    }

    /**
     * @param at                  when this summary was read
     * @param overdueAfterSeconds the waiting time past which a dataset is overdue
     * @param runsByState         runs per state, every state present
     * @param datasets            per dataset that has had an audit or has rows waiting; others have nothing to show
     * @param forwardUnresolved   forward-deletion requests unresolved past {@code erasure.forward.alert-after} (an
     *                            alert)
     */
    public record Summary(
            Instant at,
            long overdueAfterSeconds,
            Map<String, Long> runsByState,
            Map<String, DatasetBacklog> datasets,
            long forwardUnresolved) {}

    /**
     * @param deletableRows  rows validated as deletable and not yet deleted (runs awaiting approval, authorized or
     *                       deleting)
     * @param waitingSeconds how long the oldest of them has waited since validation; null when none waits
     * @param overdue        whether that is longer than {@code erasure.dashboard.overdue-after}
     * @param lastAuditAt    when the dataset's last successful audit finished; null if it never had one
     */
    public record DatasetBacklog(long deletableRows, Long waitingSeconds, boolean overdue, Instant lastAuditAt) {}
}
