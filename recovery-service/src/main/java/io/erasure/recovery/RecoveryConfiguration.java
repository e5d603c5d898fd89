package io.erasure.recovery;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.deletionlog.client.DatasetKeys;
import io.erasure.deletionlog.client.FrozenSpecs;
import io.erasure.deletionlog.client.LogReader;
import io.erasure.deletionlog.client.PayloadCipher;
import io.erasure.deletionlog.client.SealedRecords;
import io.erasure.recovery.restore.BulkRestores;
import io.erasure.recovery.restore.FrozenSpecGuard;
import io.erasure.recovery.restore.RecoveryRunner;
import io.erasure.recovery.restore.RecoveryStore;
import io.erasure.recovery.restore.RestoreThrottle;
import io.erasure.recovery.restore.RetainedRows;
import io.erasure.store.spi.BulkRestoreProviders;
import io.erasure.support.S3Properties;
import io.erasure.support.access.AccessRules;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.stores.StoreConnectionsProperties;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.function.SingletonSupplier;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RecoveryProperties.class)
class RecoveryConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /**
     * Every recovery endpoint is for the RECOVERY role: reading full rows and writing them back. Re-applying erasures
     * after a restore only deletes again what was deleted (no rows are read): RECOVERY or OPERATOR.
     */
    @Bean
    AccessRules recoveryAccess() {
        return requests -> requests.requestMatchers("/api/reapplications", "/api/reapplications/**")
                .hasAnyRole("RECOVERY", "OPERATOR")
                .requestMatchers("/api/**")
                .hasRole("RECOVERY");
    }

    @Bean
    RestoreThrottle restoreThrottle(RecoveryProperties properties) {
        return new RestoreThrottle(properties.rowsPerSecond());
    }

    @Bean(destroyMethod = "shutdownNow")
    ExecutorService recoveryWorkers(RecoveryProperties properties) {
        return Executors.newFixedThreadPool(properties.workers(), runnable -> {
            Thread thread = new Thread(runnable, "recovery-worker");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The bulk path of large recoveries, for the store types that offer one ({@code erasure.recovery.bulk-*}). */
    @Bean
    BulkRestores bulkRestores(
            StoreAdapterPool adapters,
            StoreConnectionsProperties connections,
            Clock clock,
            RecoveryProperties properties) {
        return new BulkRestores(
                adapters,
                connections,
                BulkRestoreProviders.load(),
                clock,
                properties.bulkThreshold(),
                properties.bulkBatchSize(),
                properties.bulkOptions());
    }

    /**
     * The log's tables belong to deletion-log-service and may not exist yet when this service starts:
     * the reader (which prepares its statements) is opened on first use.
     */
    @Bean
    Supplier<LogReader> logReader(
            CqlSession session,
            JsonMapper json,
            Clock clock,
            @Value("${erasure.deletion-log.master-key:}") String masterKey) {
        return SingletonSupplier.of(() ->
                new LogReader(session, new DatasetKeys(session, PayloadCipher.masterKey(masterKey), clock), json));
    }

    /**
     * Rows too large for a log message are in the platform bucket ({@code erasure.s3.*}), where this service has one.
     */
    @Bean
    RetainedRows retainedRows(
            ObjectProvider<S3Client> s3,
            ObjectProvider<S3Properties> s3Properties,
            CqlSession session,
            JsonMapper json,
            Clock clock,
            @Value("${erasure.deletion-log.master-key:}") String masterKey) {
        S3Client client = s3.getIfAvailable();
        // sealed with the dataset's key; opened on first use, as the log's tables may not exist yet
        Supplier<SealedRecords> sealed = SingletonSupplier.of(
                () -> new SealedRecords(new DatasetKeys(session, PayloadCipher.masterKey(masterKey), clock), json));
        return new RetainedRows(
                client, client == null ? null : s3Properties.getObject().bucket(), sealed);
    }

    /**
     * The specs frozen in the log by the deletion service, which recoveries and reapplications act under (opened on
     * first use, as the log's tables may not exist yet; the TTL is only for writes, which this service does not make).
     */
    @Bean
    FrozenSpecGuard frozenSpecGuard(CqlSession session, JsonMapper json) {
        return new FrozenSpecGuard(
                SingletonSupplier.of(() -> new FrozenSpecs(session, json, Duration.ofDays(30))), json);
    }

    @Bean
    RecoveryRunner recoveryRunner(
            Supplier<LogReader> logReader,
            Clock clock,
            StoreAdapterPool adapters,
            RecoveryStore store,
            RestoreThrottle throttle,
            BulkRestores bulk,
            RetainedRows retained,
            RecoveryProperties properties,
            FrozenSpecGuard frozenSpecs,
            JsonMapper json) {
        return new RecoveryRunner(
                logReader,
                adapters,
                store,
                throttle,
                bulk,
                retained,
                clock,
                new RecoveryRunner.Sizes(properties.pageSize(), properties.batchSize()),
                frozenSpecs,
                json);
    }
}
