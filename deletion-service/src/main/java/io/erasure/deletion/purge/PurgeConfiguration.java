package io.erasure.deletion.purge;

import io.erasure.support.stores.StoreAdapterPool;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
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
}
