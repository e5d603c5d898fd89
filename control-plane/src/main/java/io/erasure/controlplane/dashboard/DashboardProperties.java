package io.erasure.controlplane.dashboard;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The ops dashboard ({@code erasure.dashboard.*}). The page calls the other services straight from the
 * browser, so their base URLs are the ones a browser reaches, and each of them must allow the control
 * plane's origin in {@code erasure.access.cors.allowed-origins}.
 *
 * @param services     base URLs of the services the page reads besides the control plane
 * @param overdueAfter a validated deletable set waiting longer than this is shown as overdue
 * @param throttleHistory how long the deletion replicas' throttle samples are kept for the charts
 * @param throttleSampleInterval how often each deletion replica publishes one (its
 *     {@code erasure.deletion.throttle-sample-interval}): the finest step of a chart, and a replica silent for three
 *     of them no longer counts in a store's current figures
 */
@ConfigurationProperties("erasure.dashboard")
public record DashboardProperties(
        @DefaultValue Services services,
        @DefaultValue("24h") Duration overdueAfter,
        @DefaultValue("24h") Duration throttleHistory,
        @DefaultValue("10s") Duration throttleSampleInterval) {

    public DashboardProperties {
        if (overdueAfter == null || overdueAfter.isNegative() || overdueAfter.isZero()) {
            throw new IllegalArgumentException("erasure.dashboard.overdue-after must be a positive duration, e.g. 24h");
        }
        if (throttleHistory == null || throttleHistory.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException(
                    "erasure.dashboard.throttle-history must be a duration of at least 1m, e.g. 24h; got "
                            + throttleHistory);
        }
        if (throttleSampleInterval == null
                || throttleSampleInterval.compareTo(Duration.ofSeconds(1)) < 0
                || throttleSampleInterval.compareTo(throttleHistory) > 0) {
            throw new IllegalArgumentException("erasure.dashboard.throttle-sample-interval must be from 1s to the"
                    + " throttle history, as the deletion service's erasure.deletion.throttle-sample-interval (10s);"
                    + " got " + throttleSampleInterval);
        }
    }

    /**
     * @param deletionLog deletion-log-service: key search
     * @param recovery    recovery-service: recoveries and their outcomes
     * @param deletion    deletion-service: purge status through {@code /api/purge}
     */
    public record Services(
            @DefaultValue("http://127.0.0.1:8084") URI deletionLog,
            @DefaultValue("http://127.0.0.1:8085") URI recovery,
            @DefaultValue("http://127.0.0.1:8083") URI deletion) {

        public Services {
            requireBase("deletion-log", deletionLog);
            requireBase("recovery", recovery);
            requireBase("deletion", deletion);
        }

        private static void requireBase(String name, URI uri) {
            if (uri == null || uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException(
                        "erasure.dashboard.services." + name + " must be an absolute http(s) URL"
                                + " that a browser reaches, e.g. http://127.0.0.1:8084; got " + uri);
            }
        }

        /** The URL without a trailing slash, so the page appends paths as they are. */
        static String base(URI uri) {
            String url = uri.toString();
            return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        }
    }
}
