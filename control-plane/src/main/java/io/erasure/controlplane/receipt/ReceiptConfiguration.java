package io.erasure.controlplane.receipt;

import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ReceiptProperties.class)
class ReceiptConfiguration {

    /** The local key of application.yml starts with this; a deployment that still uses it signs nothing of worth. */
    static final String LOCAL_KEY_PREFIX = "local-only-";

    @Bean
    ReceiptSigner receiptSigner(ReceiptProperties properties) {
        if (properties.signingKey().startsWith(LOCAL_KEY_PREFIX)) {
            LoggerFactory.getLogger(ReceiptSigner.class)
                    .warn("receipts are signed with the local key of application.yml;"
                            + " set ERASURE_RECEIPTS_SIGNINGKEY from a secret store in every real deployment");
        }
        return new ReceiptSigner(properties.keyId(), properties.signingKey());
    }
}
