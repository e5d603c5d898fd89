package io.erasure.support;

import java.time.Duration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * A {@code kafka} health indicator for services that use Spring Boot's Kafka auto-configuration
 * (Boot itself has none).
 */
@AutoConfiguration(afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass(KafkaAdmin.class)
@ConditionalOnBean(KafkaAdmin.class)
@ConditionalOnEnabledHealthIndicator("kafka")
public class KafkaHealthAutoConfiguration {

    static final Duration TIMEOUT = Duration.ofSeconds(3);

    @Bean
    @ConditionalOnMissingBean(name = "kafkaHealthIndicator")
    KafkaHealthIndicator kafkaHealthIndicator(KafkaAdmin kafkaAdmin) {
        return new KafkaHealthIndicator(kafkaAdmin.getConfigurationProperties(), TIMEOUT);
    }
}
