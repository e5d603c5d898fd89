package io.erasure.controlplane.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import io.erasure.controlplane.forward.ForwardMetrics;
import io.erasure.support.metrics.DocumentedMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** The control plane's meters as Prometheus scrapes them: the names the chart's alerts and dashboards read. */
class MetricNamesTest {

    @Test
    void theMetersScrapeUnderTheDocumentedNamesAndTheObjectivesBuckets() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RunMetrics runs = new RunMetrics(mock(JdbcTemplate.class), Clock.systemUTC(), prometheus);
        runs.refresh();
        runs.runCompleted("profiles", Instant.now().minusSeconds(60), Instant.now());
        new ForwardMetrics(prometheus);

        String scrape = prometheus.scrape();

        assertThat(DocumentedMetrics.of(scrape))
                .contains(
                        "erasure_runs",
                        "erasure_runs_oldest_seconds",
                        "erasure_run_time_to_delete_seconds",
                        "erasure_forward_unresolved",
                        "erasure_forward_unresolved_oldest_seconds",
                        "erasure_forward_time_to_purge_seconds");
        // the buckets the SLO rules divide by
        assertThat(scrape)
                .contains("erasure_forward_time_to_purge_seconds_bucket{le=\"3600.0\"}")
                .contains("erasure_run_time_to_delete_seconds_bucket{dataset=\"profiles\",le=\"86400.0\"}");
        DocumentedMetrics.assertAllDocumented(scrape);
    }
}
