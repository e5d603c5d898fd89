package io.erasure.deletionlog.schema;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.datastax.oss.driver.api.core.CqlSession;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KeyspaceReplication.class)
class DeletionLogSchemaConfiguration {

    @Bean
    DeletionLogKeyspace deletionLogKeyspace(CqlSession session, KeyspaceReplication replication) {
        return new DeletionLogKeyspace(session, replication);
    }
}
