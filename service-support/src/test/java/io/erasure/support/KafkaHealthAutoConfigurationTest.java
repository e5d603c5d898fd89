package io.erasure.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class KafkaHealthAutoConfigurationTest {

    @Test
    void presentWithKafkaAutoConfiguration() {
        new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(KafkaAutoConfiguration.class, KafkaHealthAutoConfiguration.class))
                .run(context -> assertThat(context).hasBean("kafkaHealthIndicator"));
    }

    @Test
    void absentWithoutKafka() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KafkaHealthAutoConfiguration.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(KafkaHealthIndicator.class));
    }

    @Test
    void downWhenNoBrokerAnswersInTime() throws IOException {
        KafkaHealthIndicator indicator = new KafkaHealthIndicator(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + closedPort()),
                Duration.ofMillis(500));
        try {
            Health health = indicator.health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsKey("error");
        } finally {
            indicator.destroy();
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
