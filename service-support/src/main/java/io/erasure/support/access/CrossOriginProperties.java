package io.erasure.support.access;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.web.cors.CorsConfiguration;

/**
 * Which browser origins may call this service's API ({@code erasure.access.cors.*}), e.g. the ops dashboard
 * served by the control plane calling the deletion log and recovery APIs. Empty (the default) means no
 * cross-origin call is allowed. Callers still authenticate: the {@code Authorization} header is allowed,
 * cookies are not (the platform has no sessions); so is {@code X-Requested-By}, which a write with HTTP Basic
 * credentials carries, and which no other origin can send ({@link CrossSiteWriteGuard}).
 *
 * @param allowedOrigins origins as the browser sends them, {@code scheme://host[:port]} without a path,
 *                       e.g. {@code http://127.0.0.1:8080}; a comma-separated string binds too
 * @param maxAge         how long a browser may cache a preflight answer
 */
@ConfigurationProperties("erasure.access.cors")
public record CrossOriginProperties(
        List<String> allowedOrigins, @DefaultValue("30m") Duration maxAge) {

    static final String PROPERTY = "erasure.access.cors.allowed-origins";

    /** The methods of the platform's APIs: reads, creations and actions, kill-switch flips. */
    static final List<String> METHODS = List.of("GET", "POST", "PUT");
    /** The credentials, JSON bodies, and the header a write with HTTP Basic needs ({@link CrossSiteWriteGuard}). */
    static final List<String> HEADERS = List.of("Authorization", "Content-Type", CrossSiteWriteGuard.HEADER);

    private static final Set<String> SCHEMES = Set.of("http", "https");

    public CrossOriginProperties {
        allowedOrigins = allowedOrigins == null
                ? List.of()
                : allowedOrigins.stream()
                        .map(String::trim)
                        .filter(origin -> !origin.isEmpty())
                        .toList();
        allowedOrigins.forEach(CrossOriginProperties::requireOrigin);
        maxAge = maxAge == null ? Duration.ofMinutes(30) : maxAge;
    }

    public boolean enabled() {
        return !allowedOrigins.isEmpty();
    }

    /** The policy for every path of the service. */
    public CorsConfiguration policy() {
        CorsConfiguration policy = new CorsConfiguration();
        policy.setAllowedOrigins(allowedOrigins);
        policy.setAllowedMethods(METHODS);
        policy.setAllowedHeaders(HEADERS);
        policy.setAllowCredentials(false);
        policy.setMaxAge(maxAge);
        return policy;
    }

    // a browser's Origin header never has a path, so "http://host:8080/" would silently match nothing
    private static void requireOrigin(String origin) {
        if ("*".equals(origin)) {
            return;
        }
        URI uri;
        try {
            uri = URI.create(origin);
        } catch (IllegalArgumentException e) {
            throw invalid(origin);
        }
        boolean bare = (uri.getPath() == null || uri.getPath().isEmpty())
                && uri.getQuery() == null
                && uri.getFragment() == null
                && uri.getUserInfo() == null;
        if (uri.getScheme() == null || !SCHEMES.contains(uri.getScheme()) || uri.getHost() == null || !bare) {
            throw invalid(origin);
        }
    }

    private static IllegalArgumentException invalid(String origin) {
        return new IllegalArgumentException(
                PROPERTY + " has '" + origin + "': give origins as scheme://host[:port] without"
                        + " a path or trailing slash, e.g. http://127.0.0.1:8080, or * for any origin");
    }
}
