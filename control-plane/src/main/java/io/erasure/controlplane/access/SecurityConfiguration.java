package io.erasure.controlplane.access;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.converter.Converter;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Every API call is authenticated: HTTP Basic against {@code erasure.access.users} locally, and
 * JWT bearer tokens when an OAuth2 issuer is configured (roles from the {@code roles} claim, the
 * team from {@code team}). Health and the API documentation are open; everything else needs a role.
 */
@Configuration
@EnableMethodSecurity
@EnableConfigurationProperties(AccessProperties.class)
public class SecurityConfiguration {

    @Bean
    SecurityFilterChain api(HttpSecurity http, ObjectProvider<JwtDecoder> jwtDecoder) throws Exception {
        http.csrf(csrf -> csrf.disable())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers("/actuator/health/**", "/actuator/info", "/actuator/prometheus",
                                "/swagger-ui/**", "/swagger-ui.html", "/v3/api-docs/**").permitAll()
                        .requestMatchers(HttpMethod.GET, "/api/**")
                        .hasAnyRole("VIEWER", "OWNER", "OPERATOR", "RECOVERY")
                        .anyRequest().authenticated())
                .httpBasic(Customizer.withDefaults());
        if (jwtDecoder.getIfAvailable() != null) {
            http.oauth2ResourceServer(oauth -> oauth.jwt(jwt -> jwt.jwtAuthenticationConverter(new RolesClaimConverter())));
        }
        return http.build();
    }

    @Bean
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

    /** Maps the token's {@code roles} claim (e.g. {@code ["OWNER"]}) to Spring authorities. */
    static final class RolesClaimConverter implements Converter<Jwt, AbstractAuthenticationToken> {
        @Override
        public AbstractAuthenticationToken convert(Jwt jwt) {
            Collection<GrantedAuthority> authorities = new ArrayList<>();
            List<String> roles = jwt.getClaimAsStringList("roles");
            if (roles != null) {
                for (String role : roles) {
                    authorities.add(new SimpleGrantedAuthority("ROLE_" + role));
                }
            }
            return new JwtAuthenticationToken(jwt, authorities, jwt.getSubject());
        }
    }
}
