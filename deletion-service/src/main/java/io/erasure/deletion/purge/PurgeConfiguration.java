package io.erasure.deletion.purge;

import io.erasure.support.stores.StoreAdapterPool;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class PurgeConfiguration {

    @Bean
    DatasetDeletions datasetDeletions(JdbcTemplate jdbc, JsonMapper json) {
        return new DatasetDeletions(jdbc, json);
    }

    @Bean
    PurgeWatch purgeWatch(
            DatasetDeletions deletions,
            StoreAdapterPool stores,
            Clock clock,
            @Value("${erasure.deletion.purge-status-reuse:30s}") Duration reuseFor) {
        return new PurgeWatch(deletions, stores, reuseFor, clock);
    }

    @Bean
    PurgeMetrics purgeMetrics(PurgeWatch watch, Clock clock, MeterRegistry meters) {
        return new PurgeMetrics(watch::datasets, clock, meters);
    }

    /** The purge gauges move every {@code erasure.deletion.purge-metrics-interval}: each check is a JMX round trip. */
    @Bean
    PurgeMetricsRefresh purgeMetricsRefresh(PurgeMetrics metrics) {
        return new PurgeMetricsRefresh(metrics);
    }

    static final class PurgeMetricsRefresh {
        private static final Logger log = LoggerFactory.getLogger(PurgeMetricsRefresh.class);
        private final PurgeMetrics metrics;

        PurgeMetricsRefresh(PurgeMetrics metrics) {
            this.metrics = metrics;
        }

        @Scheduled(
                initialDelayString = "${erasure.deletion.purge-metrics-interval:5m}",
                fixedDelayString = "${erasure.deletion.purge-metrics-interval:5m}")
        void refresh() {
            try {
                metrics.refresh();
            } catch (RuntimeException e) {
                // the database of executed deletes is unreachable: the next refresh tries again
                log.warn("purge gauges not refreshed: {}", e.toString());
            }
        }
    }
}
