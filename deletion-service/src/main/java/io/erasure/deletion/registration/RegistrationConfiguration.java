package io.erasure.deletion.registration;

import io.erasure.support.access.AccessRules;
import io.erasure.support.access.Role;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class RegistrationConfiguration {

    /** Registration checks are the control plane's (REGISTRY) or an OPERATOR's: they tell whether tables exist. */
    @Bean
    AccessRules datasetCheckAccess() {
        return requests ->
                requests.requestMatchers("/api/dataset-checks").hasAnyRole(Role.REGISTRY.name(), Role.OPERATOR.name());
    }
}
