package io.erasure.controlplane;

import io.erasure.support.trust.SigningProperties;
import io.erasure.support.trust.TaskSigner;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

@Configuration
@EnableScheduling
class ControlPlaneConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** Signs each forward-deletion task (erasure.signing.private-key); deletion executes no unsigned one. */
    @Bean
    TaskSigner taskSigner(SigningProperties signing, Clock clock) {
        return new TaskSigner(signing.signingKey(), "control-plane", clock);
    }
}
