package io.erasure.support.access;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;

/**
 * A service's own request rules, applied after the actuator's (which they cannot change: open probes, the rest
 * for operators and Prometheus) and before the shared API rules ({@code GET /api/**} for a reader's role, other
 * {@code /api/**} calls for any role but METRICS, everything else authenticated). For example:
 * {@code requests.requestMatchers("/api/**").hasRole("RECOVERY")}.
 */
@FunctionalInterface
public interface AccessRules {

    void apply(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests);
}
