package io.erasure.validation;

import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.validation.check.CandidateChecks;
import io.erasure.validation.check.IdentifierLiveness;
import io.erasure.validation.check.ReadThrottle;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.ExponentialBackOff;

@Configuration
@EnableConfigurationProperties(ValidationProperties.class)
class ValidationConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    ReadThrottle readThrottle(ValidationProperties properties) {
        return new ReadThrottle(properties.readsPerSecond());
    }

    @Bean
    CandidateChecks candidateChecks(StoreAdapterPool stores, ReadThrottle throttle, Clock clock) {
        return new CandidateChecks(stores, new IdentifierLiveness(stores), throttle, clock);
    }

    /** Retriable store errors: back off exponentially (1 s doubling to 1 min) for up to 15 minutes, then give up. */
    @Bean
    DefaultErrorHandler kafkaErrorHandler() {
        ExponentialBackOff backOff = new ExponentialBackOff(1_000, 2.0);
        backOff.setMaxInterval(60_000);
        backOff.setMaxElapsedTime(15 * 60_000);
        return new DefaultErrorHandler(backOff);
    }
}
