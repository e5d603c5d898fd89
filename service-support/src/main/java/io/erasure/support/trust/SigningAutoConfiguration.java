package io.erasure.support.trust;

import io.erasure.model.trust.TrustedKeys;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The keys every service reads ({@link SigningProperties}): the {@link TrustedKeys} bean, for the services that verify
 * what they consume. A service that signs builds its {@code SigningKey} from {@link SigningProperties#signingKey()},
 * which fails at start naming the property to set.
 */
@AutoConfiguration
@EnableConfigurationProperties(SigningProperties.class)
public class SigningAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    TrustedKeys trustedKeys(SigningProperties properties) {
        return properties.trusted();
    }
}
