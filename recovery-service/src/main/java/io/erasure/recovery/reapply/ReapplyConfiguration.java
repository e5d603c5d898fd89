package io.erasure.recovery.reapply;

import io.erasure.backup.format.BackupBucket;
import io.erasure.deletionlog.client.LogReader;
import io.erasure.recovery.restore.FrozenSpecGuard;
import io.erasure.recovery.restore.RecoveryStore;
import io.erasure.support.S3Properties;
import io.erasure.support.tasks.DeletionTaskPublisher;
import io.erasure.support.trust.SigningProperties;
import io.erasure.support.trust.TaskSigner;
import java.time.Clock;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wires reapplications; snapshots are looked up only where the service has the platform bucket
 * ({@code erasure.s3.bucket}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ReapplyProperties.class)
class ReapplyConfiguration {

    @Bean
    ReapplicationStore reapplicationStore(JdbcTemplate jdbc, PlatformTransactionManager transactions, JsonMapper json) {
        return new ReapplicationStore(jdbc, transactions, json);
    }

    @Bean
    ErasureReapplier erasureReapplier(
            Supplier<LogReader> logReader,
            ObjectProvider<S3Client> s3,
            ObjectProvider<S3Properties> s3Properties,
            KafkaTemplate<String, String> kafka,
            JsonMapper json,
            ReapplicationStore store,
            RecoveryStore recoveries,
            ReapplyProperties properties,
            FrozenSpecGuard frozenSpecs,
            SigningProperties signing,
            Clock clock) {
        S3Client client = s3.getIfAvailable();
        BackupBucket backups = client == null
                ? null
                : new BackupBucket(client, s3Properties.getObject().bucket());
        return new ErasureReapplier(
                new ErasureWindows(backups, properties.logRetention(), clock),
                new ErasureLogScan(logReader),
                // re-applied erasures are signed with recovery's key, which deletion trusts for forward tasks only
                recoveries,
                new DeletionTaskPublisher(kafka, json, new TaskSigner(signing.signingKey(), "recovery-service", clock)),
                store,
                frozenSpecs,
                clock);
    }
}
