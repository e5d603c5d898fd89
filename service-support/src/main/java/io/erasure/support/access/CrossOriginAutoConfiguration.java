package io.erasure.support.access;

import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.CorsFilter;

/**
 * Cross-origin access for browsers, only when {@code erasure.access.cors.allowed-origins} names origins.
 * Where {@link AccessAutoConfiguration} secures the service, its chain answers preflights (which browsers
 * send without credentials) before authentication, from the {@code corsConfigurationSource} bean; a
 * service without Spring Security gets a plain servlet {@link CorsFilter} instead.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(CorsConfiguration.class)
@Conditional(CrossOriginAutoConfiguration.OnAllowedOrigins.class)
@EnableConfigurationProperties(CrossOriginProperties.class)
public class CrossOriginAutoConfiguration {

    // the name Spring Security looks a CORS configuration up by
    @Bean
    UrlBasedCorsConfigurationSource corsConfigurationSource(CrossOriginProperties properties) {
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        source.registerCorsConfiguration("/**", properties.policy());
        return source;
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("org.springframework.security.web.SecurityFilterChain")
    static class WithoutSecurity {

        @Bean
        CorsFilter corsFilter(UrlBasedCorsConfigurationSource corsConfigurationSource) {
            return new CorsFilter(corsConfigurationSource);
        }
    }

    /** Matches when at least one origin is configured, as a list or a comma-separated string. */
    static class OnAllowedOrigins extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            List<String> origins = Binder.get(context.getEnvironment())
                    .bind(CrossOriginProperties.PROPERTY, Bindable.listOf(String.class))
                    .orElse(List.of());
            boolean any = origins.stream().anyMatch(origin -> !origin.isBlank());
            return any
                    ? ConditionOutcome.match(CrossOriginProperties.PROPERTY + " " + origins)
                    : ConditionOutcome.noMatch(CrossOriginProperties.PROPERTY + " is empty");
        }
    }
}
