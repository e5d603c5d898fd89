package io.erasure.support.stores;

import io.erasure.store.spi.StoreAdapters;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** The store adapters found on the classpath and a pool of open ones per configured connection. */
@AutoConfiguration
@EnableConfigurationProperties(StoreConnectionsProperties.class)
public class StoreAdaptersAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    StoreAdapters storeAdapters() {
        return StoreAdapters.load();
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    StoreAdapterPool storeAdapterPool(StoreAdapters adapters, StoreConnectionsProperties properties) {
        return new StoreAdapterPool(adapters, properties);
    }
}
