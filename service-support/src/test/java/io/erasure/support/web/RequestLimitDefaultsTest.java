package io.erasure.support.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class RequestLimitDefaultsTest {

    @Test
    void theContainersOwnBodyLimitsFollowTheServicesLimitUnlessSetThemselves() {
        StandardEnvironment environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource(
                        "config",
                        Map.of(
                                RequestLimitsProperties.MAX_REQUEST_BODY,
                                "2MB",
                                "spring.servlet.multipart.max-file-size",
                                "512KB")));

        new RequestLimitDefaults().postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("server.tomcat.max-http-form-post-size"))
                .isEqualTo("2MB");
        assertThat(environment.getProperty("spring.servlet.multipart.max-request-size"))
                .isEqualTo("2MB");
        assertThat(environment.getProperty("spring.servlet.multipart.max-file-size"))
                .as("set by the service")
                .isEqualTo("512KB");
    }

    @Test
    void withoutAServiceLimitTheyAreTheDefaultOneMegabyte() {
        StandardEnvironment environment = new StandardEnvironment();
        new RequestLimitDefaults().postProcessEnvironment(environment, new SpringApplication());
        assertThat(environment.getProperty("server.tomcat.max-http-form-post-size"))
                .isEqualTo("1MB");
    }
}
