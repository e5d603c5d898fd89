package io.erasure.support.access;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
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
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;

/**
 * Every service API call is authenticated: HTTP Basic against {@code erasure.access.users} locally,
 * and JWT bearer tokens when an OAuth2 issuer is configured (roles from the {@code roles} claim, the
 * team from {@code team}). Health, Prometheus and the API documentation are open; a service adds its
 * own rules as {@link AccessRules} beans; then {@code GET /api/**} needs any role and everything else
 * an authenticated caller, whose roles the service checks through {@link Caller}. With
 * {@code erasure.access.cors.allowed-origins} set ({@link CrossOriginAutoConfiguration}), CORS preflights are
 * answered before authentication.
 *
 * <p>Applies to servlet services that bring {@code spring-boot-starter-security} and
 * {@code spring-boot-starter-security-oauth2-resource-server}; it replaces Boot's default chain and users.
 */
@AutoConfiguration(beforeName = {
        "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration"})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({SecurityFilterChain.class, HttpSecurity.class, Jwt.class})
@EnableMethodSecurity
@EnableConfigurationProperties(AccessProperties.class)
public class AccessAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(SecurityFilterChain.class)
    SecurityFilterChain api(HttpSecurity http, ObjectProvider<JwtDecoder> jwtDecoder, ObjectProvider<AccessRules> rules,
                            ObjectProvider<UrlBasedCorsConfigurationSource> crossOrigin) throws Exception {
        http.csrf(csrf -> csrf.disable())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(requests -> {
                    requests.requestMatchers("/actuator/health/**", "/actuator/info", "/actuator/prometheus",
                            "/swagger-ui/**", "/swagger-ui.html", "/v3/api-docs/**").permitAll();
                    rules.orderedStream().forEach(rule -> rule.apply(requests));
                    requests.requestMatchers(HttpMethod.GET, "/api/**")
                            .hasAnyRole("VIEWER", "OWNER", "OPERATOR", "RECOVERY")
                            .anyRequest().authenticated();
                })
                .httpBasic(Customizer.withDefaults());
        UrlBasedCorsConfigurationSource cors = crossOrigin.getIfAvailable();
        if (cors != null) {
            // a browser sends its preflight without credentials: answer it before authentication
            http.cors(c -> c.configurationSource(cors));
        }
        if (jwtDecoder.getIfAvailable() != null) {
            http.oauth2ResourceServer(oauth -> oauth.jwt(jwt -> jwt.jwtAuthenticationConverter(new JwtRolesConverter())));
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
        return users;
    }

    @Bean
    @ConditionalOnMissingBean
    CallerResolver callerResolver(AccessProperties properties) {
        return new CallerResolver(properties);
    }
}
