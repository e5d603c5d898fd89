package io.erasure.deletion.log;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.erasure.deletionlog.client.DatasetKeys;
import io.erasure.deletionlog.client.FrozenSpecs;
import io.erasure.deletionlog.client.PayloadCipher;
import io.erasure.deletionlog.client.SealedRecords;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.function.SingletonSupplier;
import tools.jackson.databind.json.JsonMapper;

/**
 * The deletion log's dataset keys, which seal every record before it leaves this service (DESIGN invariant 8): the same
 * {@code dataset_keys} table and master key as deletion-log-service and recovery-service, reached through
 * {@code spring.cassandra.contact-points} / {@code .local-datacenter} (the deletion log's cluster, as in those
 * services; the stores this service deletes from are reached through their own connections) and
 * {@code erasure.deletion-log.master-key}.
 */
@Configuration(proxyBeanMethods = false)
class DeletionLogKeysConfiguration {

    @Bean(destroyMethod = "close")
    CqlSession deletionLogKeysSession(
            @Value("${spring.cassandra.contact-points:}") String contactPoints,
            @Value("${spring.cassandra.local-datacenter:}") String localDatacenter) {
        List<String> endpoints = Arrays.stream(contactPoints.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
        if (endpoints.isEmpty() || localDatacenter.isBlank()) {
            throw new IllegalArgumentException("spring.cassandra.contact-points and .local-datacenter are required:"
                    + " deleted rows are sealed with their dataset's key from the deletion log's Cassandra before they"
                    + " are logged (the same cluster as deletion-log-service's spring.cassandra.*)");
        }
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withStringList(DefaultDriverOption.CONTACT_POINTS, endpoints)
                .withString(DefaultDriverOption.SESSION_NAME, "erasure-deletion-log-keys")
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_QUORUM")
                .build();
        return CqlSession.builder()
                .withConfigLoader(config)
                .withLocalDatacenter(localDatacenter)
                .build();
    }

    /**
     * Opened on first use: the keys' table is deletion-log-service's and may not exist yet when this service starts.
     */
    @Bean
    Supplier<SealedRecords> sealedRecords(
            CqlSession deletionLogKeysSession,
            JsonMapper json,
            Clock clock,
            @Value("${erasure.deletion-log.master-key:}") String masterKey) {
        var master = PayloadCipher.masterKey(masterKey);
        return SingletonSupplier.of(
                () -> new SealedRecords(new DatasetKeys(deletionLogKeysSession, master, clock), json));
    }

    /**
     * The log's frozen specs, written with each batch's records ({@code erasure.deletion-log.ttl}: the log's, the same
     * as deletion-log-service's); opened on first use, as the table is deletion-log-service's.
     */
    @Bean
    Supplier<FrozenSpecs> frozenSpecs(
            CqlSession deletionLogKeysSession,
            JsonMapper json,
            @Value("${erasure.deletion-log.ttl:30d}") Duration ttl) {
        return SingletonSupplier.of(() -> new FrozenSpecs(deletionLogKeysSession, json, ttl));
    }
}
