package io.erasure.support.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.web.cors.CorsConfiguration;

class CrossOriginPropertiesTest {

    @Test
    void noOriginsByDefaultMeansNoCrossOriginAccess() {
        CrossOriginProperties properties = bind(Map.of());

        assertThat(properties.allowedOrigins()).isEmpty();
        assertThat(properties.enabled()).isFalse();
        new ApplicationContextRunner()
                .withUserConfiguration(WhenOrigins.class)
                .run(context -> assertThat(context).doesNotHaveBean("marker"));
    }

    @Test
    void originsBindFromACommaSeparatedString() {
        CrossOriginProperties properties =
                bind(Map.of(CrossOriginProperties.PROPERTY, "http://127.0.0.1:8080, http://localhost:8080"));

        assertThat(properties.allowedOrigins()).containsExactly("http://127.0.0.1:8080", "http://localhost:8080");
        assertThat(properties.maxAge()).isEqualTo(Duration.ofMinutes(30));
        new ApplicationContextRunner()
                .withUserConfiguration(WhenOrigins.class)
                .withPropertyValues(CrossOriginProperties.PROPERTY + "=http://127.0.0.1:8080,http://localhost:8080")
                .run(context -> assertThat(context).hasBean("marker"));
    }

    @Test
    void originsBindFromAYamlList() {
        CrossOriginProperties properties = bind(Map.of(
                CrossOriginProperties.PROPERTY + "[0]",
                "https://ops.example.com",
                CrossOriginProperties.PROPERTY + "[1]",
                "http://localhost:8080",
                "erasure.access.cors.max-age",
                "5m"));

        assertThat(properties.allowedOrigins()).containsExactly("https://ops.example.com", "http://localhost:8080");
        assertThat(properties.maxAge()).isEqualTo(Duration.ofMinutes(5));
        new ApplicationContextRunner()
                .withUserConfiguration(WhenOrigins.class)
                .withPropertyValues(CrossOriginProperties.PROPERTY + "[0]=https://ops.example.com")
                .run(context -> assertThat(context).hasBean("marker"));
    }

    @Test
    void thePolicyLetsTheGivenOriginsSendCredentialsHeaderWithTheApisMethods() {
        CorsConfiguration policy = bind(Map.of(CrossOriginProperties.PROPERTY, "http://127.0.0.1:8080"))
                .policy();

        assertThat(policy.checkOrigin("http://127.0.0.1:8080")).isEqualTo("http://127.0.0.1:8080");
        assertThat(policy.checkOrigin("http://evil.example.com")).isNull();
        assertThat(policy.checkHttpMethod(HttpMethod.PUT)).isNotNull();
        assertThat(policy.checkHttpMethod(HttpMethod.DELETE)).isNull();
        assertThat(policy.checkHeaders(List.of("Authorization", "Content-Type")))
                .hasSize(2);
        // what a write with Basic credentials needs (CrossSiteWriteGuard), so the dashboard can send it
        assertThat(policy.checkHeaders(List.of(CrossSiteWriteGuard.HEADER)))
                .containsExactly(CrossSiteWriteGuard.HEADER);
        // the Authorization header is sent explicitly: no cookies, so no credentials mode
        assertThat(policy.getAllowCredentials()).isFalse();
    }

    @Test
    void anOriginWithAPathIsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> new CrossOriginProperties(List.of("http://127.0.0.1:8080/dashboard/"), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(CrossOriginProperties.PROPERTY)
                .hasMessageContaining("http://127.0.0.1:8080/dashboard/")
                .hasMessageContaining("without a path");
        assertThatThrownBy(() -> new CrossOriginProperties(List.of("127.0.0.1:8080"), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheme://host[:port]");
    }

    private static CrossOriginProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("erasure.access.cors", CrossOriginProperties.class);
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(CrossOriginAutoConfiguration.OnAllowedOrigins.class)
    static class WhenOrigins {

        @Bean
        String marker() {
            return "cors";
        }
    }
}
