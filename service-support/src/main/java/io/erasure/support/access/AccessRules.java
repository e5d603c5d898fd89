package io.erasure.support.access;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;

/**
 * A service's own request rules, applied before the shared ones (open health and API docs, {@code GET /api/**}
 * for any role, everything else authenticated). For example: {@code requests.requestMatchers("/api/**").hasRole("RECOVERY")}.
 */
@FunctionalInterface
public interface AccessRules {

    void apply(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests);
}
