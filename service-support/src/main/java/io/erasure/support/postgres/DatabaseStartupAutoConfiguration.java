package io.erasure.support.postgres;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * A service started while its PostgreSQL is down (restarting, failing over, started by the same supervisor at the same
 * time) waits for it instead of exiting: Flyway, the first to connect, tries again {@value #CONNECT_RETRIES} times,
 * waiting 1 s, then twice as long each time up to 2 minutes (about 8 minutes in all). An operator's own
 * {@code spring.flyway.connect-retries} (a positive number) is kept.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration")
@ConditionalOnClass(
        name = {
            "org.flywaydb.core.Flyway",
            "org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer"
        })
public class DatabaseStartupAutoConfiguration {

    static final int CONNECT_RETRIES = 10;

    @Bean
    FlywayConfigurationCustomizer waitForTheDatabaseOnStart() {
        return configuration -> {
            if (configuration.getConnectRetries() == 0) {
                configuration.connectRetries(CONNECT_RETRIES);
            }
        };
    }
}
