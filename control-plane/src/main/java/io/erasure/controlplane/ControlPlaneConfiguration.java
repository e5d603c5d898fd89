package io.erasure.controlplane;

import io.erasure.support.kafka.ListenerRetries;
import io.erasure.support.trust.SigningProperties;
import io.erasure.support.trust.TaskSigner;
import java.time.Clock;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.scheduling.annotation.EnableScheduling;

@Configuration
@EnableScheduling
class ControlPlaneConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /**
     * Run events, refused tasks and forward requests are the control plane's only record of what happened: one that
     * fails while PostgreSQL or S3 is away (a receipt is written to S3 as the last batch is applied) is retried until
     * they are back, never skipped after a few attempts as by default, which left its run waiting for ever.
     */
    @Bean
    DefaultErrorHandler kafkaErrorHandler() {
        return ListenerRetries.untilDependenciesAreBack(Duration.ofMinutes(2));
    }

    /** Signs each forward-deletion task (erasure.signing.private-key); deletion executes no unsigned one. */
    @Bean
    TaskSigner taskSigner(SigningProperties signing, Clock clock) {
        return new TaskSigner(signing.signingKey(), "control-plane", clock);
    }
}
