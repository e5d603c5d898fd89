package io.erasure.support.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.cassandra.autoconfigure.DriverConfigLoaderBuilderCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * A service started while its Cassandra is down (a node restarting, a supervisor restarting both at once) waits for it
 * instead of exiting: the driver keeps trying its contact points on the reconnection policy's schedule, and the
 * session, and with it the service, comes up once a node answers. Without this the first failed attempt ends the
 * service's start, and whatever restarted it has to try again.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.cassandra.autoconfigure.CassandraAutoConfiguration")
@ConditionalOnClass({CqlSession.class, DriverConfigLoaderBuilderCustomizer.class})
public class CassandraStartupAutoConfiguration {

    @Bean
    DriverConfigLoaderBuilderCustomizer waitForCassandraOnStart() {
        return builder -> builder.withBoolean(DefaultDriverOption.RECONNECT_ON_INIT, true);
    }
}
