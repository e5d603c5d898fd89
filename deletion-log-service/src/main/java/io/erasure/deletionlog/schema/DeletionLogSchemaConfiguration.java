package io.erasure.deletionlog.schema;

import com.datastax.oss.driver.api.core.CqlSession;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KeyspaceReplication.class)
class DeletionLogSchemaConfiguration {

    @Bean
    DeletionLogKeyspace deletionLogKeyspace(
            CqlSession session,
            KeyspaceReplication replication,
            @Value("${erasure.deletion-log.ttl:30d}") Duration ttl) {
        return new DeletionLogKeyspace(session, replication, ttl);
    }
}
