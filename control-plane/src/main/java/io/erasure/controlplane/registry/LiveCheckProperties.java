package io.erasure.controlplane.registry;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the registry checks a registration against the live stores ({@code erasure.registry.live-check}): by asking the
 * deletion service, which has the adapters, before anything is stored.
 *
 * @param enabled  false only where no deletion service runs (the control plane's own tests); a registration is then
 *                 stored after the model's checks alone, and the first run's audit finds what is wrong
 * @param url      the deletion service's base URL
 * @param username the deletion service user with role REGISTRY
 * @param password its password
 * @param timeout  how long one check may take (a Cassandra schema read, a PostgreSQL catalog query per copy)
 */
@ConfigurationProperties("erasure.registry.live-check")
public record LiveCheckProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("http://127.0.0.1:8083") URI url,
        String username,
        String password,
        @DefaultValue("30s") Duration timeout) {

    public LiveCheckProperties {
        if (enabled && (username == null || username.isBlank() || password == null || password.isBlank())) {
            throw new IllegalArgumentException(
                    "erasure.registry.live-check.username and .password must name the deletion"
                            + " service's REGISTRY user (or set erasure.registry.live-check.enabled=false where no"
                            + " deletion service runs)");
        }
        if (url == null || url.getScheme() == null || url.getHost() == null) {
            throw new IllegalArgumentException("erasure.registry.live-check.url must be the deletion service's absolute"
                    + " http(s) base URL, e.g. http://deletion-service:8083; got " + url);
        }
    }
}
