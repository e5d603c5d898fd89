package io.erasure.controlplane.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.controlplane.metrics.RunMetrics;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.run.RunState;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

class DashboardIT extends ControlPlaneTestSupport {

    @Autowired
    private RunMetrics metrics;

    @Autowired
    private MeterRegistry meters;

    @Test
    void thePageLoadsWithoutCredentialsWhileItsDataNeedsThem() throws Exception {
        RestTestClient anonymous = RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .build();

        anonymous
                .get()
                .uri("/dashboard/")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.TEXT_HTML)
                .expectBody(String.class)
                .value(page -> assertThat(page).contains("data-testid=\"login-form\"", "src=\"js/app.js\""));
        anonymous.get().uri("/dashboard/js/app.js").exchange().expectStatus().isOk();
        anonymous
                .get()
                .uri("/dashboard/config.json")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .json("""
                {"services": {"deletionLog": "http://127.0.0.1:8084", "recovery": "http://127.0.0.1:8085",
                              "deletion": "http://127.0.0.1:8083"},
                 "overdueAfterSeconds": 86400, "throttleHistoryMinutes": 1440}""", JsonCompareMode.STRICT);
        HttpResponse<Void> withoutSlash = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/dashboard"))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
        assertThat(withoutSlash.statusCode()).isEqualTo(302);
        assertThat(withoutSlash.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/dashboard/"));

        anonymous.get().uri("/api/dashboard/summary").exchange().expectStatus().isUnauthorized();
        as("viewer")
                .get()
                .uri("/api/dashboard/summary")
                .exchange()
                .expectStatus()
                .isOk();
    }

    @Test
    void aValidatedSetWaitingLongerThanADayIsShownDeletableAndOverdue() {
        DatasetSpec spec = registerDataset();
        String runId = unique("run-dashboard");
        Instant validated = Instant.now().minus(Duration.ofHours(25));
        jdbc.update(
                """
                        INSERT INTO runs (id, dataset, spec, state, version, dry_run, triggered_by, final_count,
                                          task_count, steps, created_at, updated_at)
                        VALUES (?, ?, ?::jsonb, 'AWAITING_APPROVAL', 1, false, 'owner', 40, 1, ?::jsonb, ?, ?)""",
                runId,
                spec.name(),
                json.writeValueAsString(spec),
                json.writeValueAsString(Map.of("AWAITING_APPROVAL", validated.toString())),
                Timestamp.from(validated),
                Timestamp.from(validated));
        try {
            metrics.refresh();

            DeletionBacklog.Summary summary = as("viewer")
                    .get()
                    .uri("/api/dashboard/summary")
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .returnResult(DeletionBacklog.Summary.class)
                    .getResponseBody();

            assertThat(summary.runsByState())
                    .containsKeys(
                            Arrays.stream(RunState.values()).map(Enum::name).toArray(String[]::new));
            assertThat(summary.runsByState().get("AWAITING_APPROVAL")).isPositive();
            DeletionBacklog.DatasetBacklog backlog = summary.datasets().get(spec.name());
            assertThat(backlog.deletableRows()).isEqualTo(40);
            assertThat(backlog.waitingSeconds())
                    .isGreaterThanOrEqualTo(Duration.ofHours(25).toSeconds());
            assertThat(backlog.overdue()).isTrue();
            assertThat(meters.get(RunMetrics.OLDEST)
                            .tag("state", "AWAITING_APPROVAL")
                            .gauge()
                            .value())
                    .as("how long the oldest run has awaited approval")
                    .isGreaterThanOrEqualTo(Duration.ofHours(25).toSeconds());
            assertThat(meters.find(RunMetrics.OLDEST).tag("state", "COMPLETED").gauge())
                    .as("final states are never stuck")
                    .isNull();
        } finally {
            // leave no run waiting for the other tests of this shared database
            jdbc.update("UPDATE runs SET state = 'CANCELLED' WHERE id = ?", runId);
            metrics.refresh();
        }
    }
}
