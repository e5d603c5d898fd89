package io.erasure.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.infra.PrometheusEngine;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The local platform's Prometheus (Debian's, which .ci/run installs; the platform runs without it), after the demo: it
 * scrapes every service as the METRICS user, evaluates the chart's alert rules without an error, and holds the series
 * those rules read, under the names the rules give them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MonitoringPlatformIT {

    private final JsonMapper json = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();
    private PrometheusEngine prometheus;

    @BeforeAll
    void platform() throws Exception {
        Assumptions.assumeTrue(
                PrometheusEngine.installed().isPresent(),
                "Prometheus is not installed (apt-get install prometheus; .ci/run does)");
        prometheus = SharedPlatform.get().platform.engine(PrometheusEngine.class);
    }

    @Test
    void everyServiceIsScrapedAsTheMetricsUser() {
        JsonNode targets = await("every service scraped")
                .atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> api("/api/v1/targets?state=active").path("data").path("activeTargets"), active -> {
                    List<String> health = new ArrayList<>();
                    active.forEach(target -> health.add(target.path("health").asString()));
                    return health.size() == LocalPlatform.SERVICES.size()
                            && health.stream().allMatch("up"::equals);
                });

        Set<String> services = new TreeSet<>();
        targets.forEach(
                target -> services.add(target.path("labels").path("service").asString()));
        assertThat(services)
                .containsExactlyInAnyOrderElementsOf(LocalPlatform.SERVICES.stream()
                        .map(LocalPlatform.Service::module)
                        .toList());
    }

    @Test
    void theAlertRulesAreEvaluatedWithoutAnError() {
        JsonNode groups = await("every rule evaluated")
                .atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> api("/api/v1/rules").path("data").path("groups"), all -> {
                    List<String> health = new ArrayList<>();
                    all.forEach(group -> group.path("rules")
                            .forEach(rule -> health.add(rule.path("health").asString())));
                    return !health.isEmpty() && health.stream().noneMatch("unknown"::equals);
                });

        List<String> failing = new ArrayList<>();
        int rules = 0;
        for (JsonNode group : groups) {
            for (JsonNode rule : group.path("rules")) {
                rules++;
                if (!rule.path("health").asString().equals("ok")) {
                    failing.add(rule.path("name").asString() + ": "
                            + rule.path("lastError").asString());
                }
            }
        }
        assertThat(rules)
                .as("the rules of helm/erasure/rules/erasure-rules.yaml")
                .isGreaterThanOrEqualTo(14);
        assertThat(failing).isEmpty();
    }

    @Test
    void theSeriesTheAlertsReadAreThereAfterTheDemo() throws Exception {
        // every series an alert reads, except the counters of events the demo does not cause (resurrections) and the
        // backlog gauges, which have a series only while a dataset has validated rows waiting
        List<String> expected = List.of(
                "erasure_runs_oldest_seconds",
                "erasure_deletion_log_lag",
                "erasure_deletion_readback_misses_total",
                "erasure_deletion_rate_limit",
                "erasure_deletion_rate_floor",
                "erasure_deletion_rate_sent",
                "erasure_deletion_throttle_decisions_total",
                "erasure_forward_unresolved_oldest_seconds",
                "erasure_forward_time_to_purge_seconds_bucket",
                "erasure_run_time_to_delete_seconds_bucket");

        JsonNode names = await("the alerts' series scraped")
                .atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> api("/api/v1/label/__name__/values").path("data"), all -> {
                    Set<String> present = new TreeSet<>();
                    all.forEach(name -> present.add(name.asString()));
                    return present.containsAll(expected);
                });

        assertThat(names).isNotEmpty();
        String completed = api("/api/v1/query?query="
                        + URLEncoder.encode("sum(erasure_run_time_to_delete_seconds_count)", StandardCharsets.UTF_8))
                .path("data")
                .path("result")
                .path(0)
                .path("value")
                .path(1)
                .asString();
        assertThat(Double.parseDouble(completed))
                .as("the demo's completed runs, timed")
                .isPositive();
    }

    private JsonNode api(String path) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(prometheus.url() + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return json.readTree(response.body());
    }
}
