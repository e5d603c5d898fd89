package io.erasure.deletion.purge;

import io.erasure.deletion.DeletionProperties;
import io.erasure.deletion.throttle.AdaptiveThrottle;
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

    /** Half the throttle's target utilization: a store busier than that is left to purge on its own. */
    @Bean
    PurgeExpunger purgeExpunger(
            DatasetDeletions deletions,
            PurgeWatch watch,
            StoreAdapterPool stores,
            AdaptiveThrottle throttle,
            DeletionProperties properties,
            Clock clock) {
        return new PurgeExpunger(
                deletions::withDeletes,
                watch::datasets,
                stores::adapter,
                store -> throttle.utilization(store, () -> stores.adapter(store).loadSignal()),
                (1 - properties.headroom()) / 2,
                clock);
    }

    /**
     * The purge gauges move every {@code erasure.deletion.purge-metrics-interval}: each check is a JMX round trip.
     * Then what is due is asked to purge, from the answers just read.
     */
    @Bean
    PurgeMetricsRefresh purgeMetricsRefresh(PurgeMetrics metrics, PurgeExpunger expunger) {
        return new PurgeMetricsRefresh(metrics, expunger);
    }

    static final class PurgeMetricsRefresh {
        private static final Logger log = LoggerFactory.getLogger(PurgeMetricsRefresh.class);
        private final PurgeMetrics metrics;
        private final PurgeExpunger expunger;

        PurgeMetricsRefresh(PurgeMetrics metrics, PurgeExpunger expunger) {
            this.metrics = metrics;
            this.expunger = expunger;
        }

        @Scheduled(
                initialDelayString = "${erasure.deletion.purge-metrics-interval:5m}",
                fixedDelayString = "${erasure.deletion.purge-metrics-interval:5m}")
        void refresh() {
            try {
                metrics.refresh();
                expunger.expungeDue();
            } catch (RuntimeException e) {
                // the database of executed deletes is unreachable: the next refresh tries again
                log.warn("purge gauges not refreshed: {}", e.toString());
            }
        }
    }
}
