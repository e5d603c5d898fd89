package io.erasure.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.infra.LocalEngines;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;

/** The shared wiring against real engines: the S3 client works with the bucket, both health indicators say UP. */
class ServiceSupportIT {

    @Test
    void s3ClientWritesAndReadsTheBucketAndHealthIsUp() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(S3AutoConfiguration.class))
                .withPropertyValues(properties(LocalEngines.s3().springProperties()))
                .run(context -> {
                    S3Client s3 = context.getBean(S3Client.class);
                    String bucket = context.getBean(S3Properties.class).bucket();

                    // a PUT with the SDK's default checksums is what S3-compatible servers reject
                    s3.putObject(
                            request -> request.bucket(bucket).key("it/service-support.txt"),
                            RequestBody.fromString("kept"));
                    String read = s3.getObject(
                                    request -> request.bucket(bucket).key("it/service-support.txt"),
                                    ResponseTransformer.toBytes())
                            .asUtf8String();
                    Health health = context.getBean(S3HealthIndicator.class).health();

                    assertThat(read).isEqualTo("kept");
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("bucket", bucket);
                });
    }

    @Test
    void kafkaHealthIsUpAgainstARealBroker() {
        Map<String, Object> config = new HashMap<>();
        config.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                LocalEngines.kafka().springProperties().get("spring.kafka.bootstrap-servers"));
        KafkaHealthIndicator indicator = new KafkaHealthIndicator(config, Duration.ofSeconds(10));
        try {
            Health health = indicator.health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsKey("clusterId").containsEntry("nodes", 1);
        } finally {
            indicator.destroy();
        }
    }

    private static String[] properties(Map<String, String> properties) {
        return properties.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
    }
}
