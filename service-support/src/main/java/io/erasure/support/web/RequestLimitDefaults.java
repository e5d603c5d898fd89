package io.erasure.support.web;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Bounds the bodies the container parses itself by {@value RequestLimitsProperties#MAX_REQUEST_BODY}, as
 * {@link RequestBodyLimit} bounds the ones the platform reads: a form post's parameters and a multipart upload (the
 * control plane's receipt check) are read by Tomcat and Spring's multipart resolver, not through the filter's counted
 * stream, so a chunked body of that kind would otherwise be bounded only by their own defaults (2 MB and 10 MB).
 * These are defaults, last in precedence: a service's own setting of these properties still wins.
 */
public class RequestLimitDefaults implements EnvironmentPostProcessor {

    static final String NAME = "erasureRequestLimitDefaults";
    private static final String LIMIT = "${" + RequestLimitsProperties.MAX_REQUEST_BODY + ":1MB}";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment
                .getPropertySources()
                .addLast(new MapPropertySource(
                        NAME,
                        Map.of(
                                "server.tomcat.max-http-form-post-size", LIMIT,
                                "spring.servlet.multipart.max-request-size", LIMIT,
                                "spring.servlet.multipart.max-file-size", LIMIT)));
    }
}
