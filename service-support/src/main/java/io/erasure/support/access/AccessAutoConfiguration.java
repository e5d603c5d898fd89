package io.erasure.support.access;

import java.util.Arrays;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;

/**
 * Every service call is authenticated: HTTP Basic against {@code erasure.access.users} locally,
 * and JWT bearer tokens when an OAuth2 issuer is configured (roles from the {@code roles} claim, the
 * team from {@code team}). Only the probes are open: {@code /actuator/health/liveness}, {@code /readiness}
 * and {@code /actuator/health}, which answers anyone but an OPERATOR with the status alone
 * ({@link OperatorHealthDetails}). {@code /actuator/prometheus} needs METRICS (Prometheus' own credential)
 * or OPERATOR, the rest of {@code /actuator} OPERATOR; services cannot loosen these. A service then adds
 * its own rules as {@link AccessRules} beans; after them {@code GET /api/**} needs a reader's role, any
 * other {@code /api/**} call any role but METRICS, and everything else (the API documentation among it)
 * an authenticated caller, whose roles the service checks through {@link Caller}. A write authenticated by
 * HTTP Basic must carry the header {@value CrossSiteWriteGuard#HEADER} ({@link CrossSiteWriteGuard}). With
 * {@code erasure.access.cors.allowed-origins} set ({@link CrossOriginAutoConfiguration}), CORS preflights are
 * answered before authentication.
 *
 * <p>Applies to servlet services that bring {@code spring-boot-starter-security} and
 * {@code spring-boot-starter-security-oauth2-resource-server}; it replaces Boot's default chain and users, and
 * comes before the resource server's auto-configuration, whose JWT-only chain would otherwise take over once an
 * issuer is set.
 */
@AutoConfiguration(
        beforeName = {
            "org.springframework.boot.security.oauth2.server.resource.autoconfigure.servlet."
                    + "OAuth2ResourceServerAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.actuate.web.servlet."
                    + "ManagementWebSecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration"
        })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({SecurityFilterChain.class, HttpSecurity.class, Jwt.class})
@EnableMethodSecurity
@EnableConfigurationProperties(AccessProperties.class)
public class AccessAutoConfiguration {

    /**
     * What Kubernetes, compose and {@code ./erasure-local} poll; {@code /actuator/health} shows them the status only.
     */
    static final String[] PROBES = {"/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness"};

    private static final String[] READERS = names(Role.VIEWER, Role.OWNER, Role.OPERATOR, Role.RECOVERY);
    private static final String[] API_ROLES =
            names(Role.VIEWER, Role.OWNER, Role.OPERATOR, Role.RECOVERY, Role.PUBLISHER);

    @Bean
    @ConditionalOnMissingBean(SecurityFilterChain.class)
    SecurityFilterChain api(
            HttpSecurity http,
            ObjectProvider<JwtDecoder> jwtDecoder,
            ObjectProvider<AccessRules> rules,
            ObjectProvider<UrlBasedCorsConfigurationSource> crossOrigin)
            throws Exception {
        // no sessions, no cookies: a browser's only ambient credential is a cached Basic login, which
        // CrossSiteWriteGuard keeps from being used by another site instead of CSRF tokens
        http.csrf(csrf -> csrf.disable())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .addFilterBefore(new CrossSiteWriteGuard(), BasicAuthenticationFilter.class)
                .authorizeHttpRequests(requests -> {
                    // first, so that no service rule can open more of the actuator
                    requests.requestMatchers(PROBES)
                            .permitAll()
                            .requestMatchers("/actuator/prometheus")
                            .hasAnyRole(Role.METRICS.name(), Role.OPERATOR.name())
                            .requestMatchers("/actuator", "/actuator/**")
                            .hasRole(Role.OPERATOR.name());
                    rules.orderedStream().forEach(rule -> rule.apply(requests));
                    requests.requestMatchers(HttpMethod.GET, "/api/**")
                            .hasAnyRole(READERS)
                            .requestMatchers("/api/**")
                            .hasAnyRole(API_ROLES)
                            .anyRequest()
                            .authenticated();
                })
                .httpBasic(Customizer.withDefaults());
        UrlBasedCorsConfigurationSource cors = crossOrigin.getIfAvailable();
        if (cors != null) {
            // a browser sends its preflight without credentials: answer it before authentication
            http.cors(c -> c.configurationSource(cors));
        }
        if (jwtDecoder.getIfAvailable() != null) {
            http.oauth2ResourceServer(
                    oauth -> oauth.jwt(jwt -> jwt.jwtAuthenticationConverter(new JwtRolesConverter())));
        }
        return http.build();
    }

    @Bean
    @ConditionalOnMissingBean(UserDetailsService.class)
    UserDetailsService localUsers(AccessProperties properties) {
        InMemoryUserDetailsManager users = new InMemoryUserDetailsManager();
        for (AccessProperties.LocalUser user : properties.users()) {
            users.createUser(User.withUsername(user.name())
                    .password(user.password())
                    .roles(user.roles().stream().map(Role::name).toArray(String[]::new))
                    .build());
        }
        // only the lookup, not the manager: a user store that can update passwords makes Spring Security re-hash a
        // {noop} password with bcrypt at its user's first login, and every later request of that user then pays a
        // bcrypt check (about 0.1 CPU-second here) where a plain comparison was configured
        return users::loadUserByUsername;
    }

    @Bean
    @ConditionalOnMissingBean
    CallerResolver callerResolver(AccessProperties properties) {
        return new CallerResolver(properties);
    }

    private static String[] names(Role... roles) {
        return Arrays.stream(roles).map(Role::name).toArray(String[]::new);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {
                "org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor",
                "org.springframework.boot.actuate.endpoint.SecurityContext"
            })
    static class HealthDetails {

        @Bean
        static HealthEndpointGroupsPostProcessor operatorHealthDetails() {
            return new OperatorHealthDetails();
        }
    }
}
