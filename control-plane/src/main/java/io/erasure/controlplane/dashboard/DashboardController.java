package io.erasure.controlplane.dashboard;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The ops dashboard: the page itself ({@code static/dashboard/}), where it finds the other services, and
 * the backlog summary that the REST API has no resource for. Everything else the page reads is the
 * public API, with the signed-in user's credentials.
 */
@RestController
public class DashboardController {

    private final DeletionBacklog backlog;
    private final DashboardProperties properties;
    private final ThrottleHistory throttle;

    public DashboardController(DeletionBacklog backlog, DashboardProperties properties, ThrottleHistory throttle) {
        this.backlog = backlog;
        this.properties = properties;
        this.throttle = throttle;
    }

    private static final Resource PAGE = new ClassPathResource("static/dashboard/index.html");

    // the page's relative script paths resolve only under the trailing slash
    @GetMapping("/dashboard")
    public ResponseEntity<Void> redirectToPage() {
        return ResponseEntity.status(HttpStatus.FOUND)
                .location(URI.create("/dashboard/"))
                .build();
    }

    @GetMapping("/dashboard/")
    public ResponseEntity<Resource> page() {
        return ResponseEntity.ok()
                .contentType(MediaType.TEXT_HTML)
                .cacheControl(CacheControl.noCache())
                .body(PAGE);
    }

    /** Base URLs of the services the page calls from the browser; nothing secret. */
    @GetMapping("/dashboard/config.json")
    public Map<String, Object> config() {
        Map<String, String> services = new LinkedHashMap<>();
        services.put(
                "deletionLog",
                DashboardProperties.Services.base(properties.services().deletionLog()));
        services.put(
                "recovery",
                DashboardProperties.Services.base(properties.services().recovery()));
        services.put(
                "deletion",
                DashboardProperties.Services.base(properties.services().deletion()));
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("services", services);
        config.put("overdueAfterSeconds", properties.overdueAfter().toSeconds());
        config.put("throttleHistoryMinutes", properties.throttleHistory().toMinutes());
        return config;
    }

    @GetMapping("/api/dashboard/summary")
    public DeletionBacklog.Summary summary() {
        return backlog.summary();
    }

    /**
     * Every store's deletion rate, limit and utilization over the last {@code minutes} (1 up to the history kept,
     * 24 h, the default), all deletion replicas added up, with where each store stands now.
     */
    @GetMapping("/api/dashboard/throttle")
    public ThrottleHistory.History throttle(@RequestParam(required = false) @Nullable Integer minutes) {
        return throttle.last(minutes == null ? throttle.kept() : Duration.ofMinutes(minutes));
    }
}
