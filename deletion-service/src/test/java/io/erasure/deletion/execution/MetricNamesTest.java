package io.erasure.deletion.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.deletion.DeletionProperties;
import io.erasure.deletion.purge.OnDisk;
import io.erasure.deletion.purge.PurgeMetrics;
import io.erasure.deletion.throttle.AdaptiveThrottle;
import io.erasure.deletion.throttle.ShardOwnership;
import io.erasure.model.event.BatchCounts;
import io.erasure.store.spi.LoadSignal;
import io.erasure.support.metrics.DocumentedMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The deletion service's batch and throttle meters as Prometheus scrapes them: the names the alerts read. */
class MetricNamesTest {

    @Test
    void theMetersScrapeUnderTheDocumentedNames() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AdaptiveThrottle throttle = new AdaptiveThrottle(
                new DeletionProperties(
                        null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null),
                new ShardOwnership(),
                prometheus);
        throttle.limit("pg-main");
        throttle.adjust(store -> new LoadSignal(0.2, Map.of("cpu", 0.2), Instant.now()));
        new DeletionMetrics(prometheus).batchDone("profiles", "pg-main", new BatchCounts(3, 0, 0, 1), 1, 0, 4);
        new StoreCalls(1, Duration.ofMillis(1), Duration.ofMillis(1), prometheus).call("pg-main", () -> 1);
        Instant deleted = Instant.now().minus(Duration.ofHours(2));
        new PurgeMetrics(
                        () -> List.of(new OnDisk(
                                "events",
                                "ks.events",
                                deleted,
                                3600L,
                                deleted.plusSeconds(3600),
                                true,
                                5L,
                                "",
                                null,
                                Instant.now())),
                        Clock.systemUTC(),
                        prometheus)
                .refresh();

        String scrape = prometheus.scrape();

        assertThat(DocumentedMetrics.of(scrape))
                .contains(
                        "erasure_deletion_rate_limit",
                        "erasure_deletion_rate_floor",
                        "erasure_deletion_rate_cap",
                        "erasure_deletion_rate_sent",
                        "erasure_deletion_throttle_decisions_total",
                        "erasure_deletion_store_read_p99_milliseconds",
                        "erasure_deletion_readback_misses_total",
                        "erasure_deletion_rows_total",
                        "erasure_deletion_breaker_open",
                        "erasure_deletion_purge_waiting_seconds",
                        "erasure_deletion_purge_past_grace_seconds",
                        "erasure_deletion_purge_tombstones",
                        "erasure_deletion_purge_checks_total");
        assertThat(scrape)
                .contains("erasure_deletion_throttle_decisions_total{decision=\"raise\",reason=\"headroom\","
                        + "store=\"pg-main\"} 1.0");
        DocumentedMetrics.assertAllDocumented(scrape);
    }
}
