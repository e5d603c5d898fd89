package io.erasure.controlplane.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.model.contract.Topics;
import io.erasure.model.event.ThrottleSample;
import io.erasure.model.event.ThrottleSample.StoreThrottle;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.web.servlet.client.RestTestClient;

/**
 * The dashboard's throttle history from every deletion replica's samples on {@code erasure.throttle.samples}:
 * kept in the control plane's database, added up over the replicas, with gaps where nobody reported, and never
 * bent by a sample that is unreadable, out of range or from a clock far ahead.
 */
class ThrottleHistoryIT extends ControlPlaneTestSupport {

    @Autowired
    private KafkaTemplate<String, String> kafka;

    @Autowired
    private ThrottleSamplesListener listener;

    @Test
    void everyReplicasSamplesMakeOneHistoryWithGapsAndCurrentFigures() throws Exception {
        String store = unique("pg-history");
        Instant now = Instant.now();
        // on a bucket boundary, so both replicas' first samples share one bucket of 10 s
        Instant early = now.minus(Duration.ofMinutes(30)).truncatedTo(ChronoUnit.MINUTES);
        send(sample("host-a/1", early, line(store, 100, 80, 0.5, "raise", "headroom")));
        send(sample("host-b/7", early, line(store, 50, 40, 0.7, "raise", "headroom")));
        send(sample("host-a/1", early.plusSeconds(10), line(store, 110, 90, 0.5, "raise", "headroom")));
        // nothing for 25 minutes, then both replicas again
        send(sample("host-a/1", now.minusSeconds(20), line(store, 120, 90, 0.4, "hold", "at_cap")));
        send(sample("host-b/7", now.minusSeconds(15), line(store, 60, 30, 0.6, "cut", "read_latency")));
        // what must change nothing
        kafka.send(Topics.THROTTLE_SAMPLES, "x", "{not json").get();
        String negative = """
                {"replica": "host-a/1", "sampledAt": "%s", "stores": [{"store": "%s", "limit": -5, "floor": 10,
                 "cap": 100, "rate": 0, "utilization": 0.1, "decision": "raise", "reason": "headroom"}]}""";
        kafka.send(Topics.THROTTLE_SAMPLES, "x", negative.formatted(now.minusSeconds(5), store))
                .get();
        send(sample("host-c/9", now.plus(Duration.ofHours(2)), line(store, 9_999, 9_999, 0.9, "raise", "headroom")));
        send(sample("host-c/9", now.minus(Duration.ofHours(30)), line(store, 9_999, 9_999, 0.9, "raise", "headroom")));
        // one partition: once the last sample is kept, every one before it has been read
        String sentinel = unique("sentinel");
        send(sample("host-a/1", now, line(sentinel, 10, 0, 0, "hold", "headroom")));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.queryForObject(
                                "SELECT count(*) FROM throttle_samples WHERE store = ?", Long.class, sentinel)
                        == 1);

        assertThat(jdbc.queryForObject("SELECT count(*) FROM throttle_samples WHERE store = ?", Long.class, store))
                .as("the five good samples, nothing of the unreadable, negative, future or expired ones")
                .isEqualTo(5);
        ThrottleHistory.History history = as("viewer")
                .get()
                .uri("/api/dashboard/throttle?minutes=60")
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(ThrottleHistory.History.class)
                .getResponseBody();

        assertThat(history.stepSeconds())
                .as("60 minutes in at most 720 points, never finer than a sample")
                .isEqualTo(10);
        ThrottleHistory.StoreHistory series = history.stores().stream()
                .filter(s -> s.store().equals(store))
                .findFirst()
                .orElseThrow();
        List<ThrottleHistory.Point> points = series.points();
        assertThat(points.get(0))
                .as("both replicas' first samples, added up; the utilization is the store's highest reading")
                .isEqualTo(new ThrottleHistory.Point(early, 120.0, 150.0, 0.7));
        assertThat(points.get(1))
                .as("the second replica's sample holds until its next one, or 1.5 intervals: for half the bucket")
                .isEqualTo(new ThrottleHistory.Point(early.plusSeconds(10), 110.0, 135.0, 0.7));
        assertThat(points)
                .filteredOn(p -> p.rate() == null)
                .as("a gap where nobody reported")
                .hasSize(1);
        assertThat(points.subList(
                        points.indexOf(new ThrottleHistory.Point(points.get(3).t(), null, null, null)) + 1,
                        points.size()))
                .extracting(ThrottleHistory.Point::rate)
                .as("the two recent samples: both replicas together at most")
                .isNotEmpty()
                .allMatch(rate -> rate > 0 && rate <= 120.0);
        assertThat(points)
                .extracting(ThrottleHistory.Point::limit)
                .filteredOn(Objects::nonNull)
                .as("nothing of the sample from a clock two hours ahead")
                .allMatch(limit -> limit < 9_999);
        ThrottleHistory.Current current = series.current();
        assertThat(current).isNotNull();
        assertThat(current.replicas()).isEqualTo(2);
        assertThat(current.limit()).isEqualTo(180);
        assertThat(current.rate()).isEqualTo(120);
        assertThat(current.floor()).isEqualTo(20);
        assertThat(current.cap()).isEqualTo(200);
        assertThat(current.utilization()).isEqualTo(0.6);
        assertThat(current.decisions())
                .containsEntry("host-a/1", "hold: at_cap")
                .containsEntry("host-b/7", "cut: read_latency");
    }

    @Test
    void theWindowIsCheckedAndTheHistoryNeedsAReader() {
        RestTestClient anonymous = RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .build();
        anonymous.get().uri("/api/dashboard/throttle").exchange().expectStatus().isUnauthorized();
        for (String minutes : List.of("0", "-5", "1441", "soon")) {
            as("viewer")
                    .get()
                    .uri("/api/dashboard/throttle?minutes=" + minutes)
                    .exchange()
                    .expectStatus()
                    .isBadRequest();
        }
        as("viewer")
                .get()
                .uri("/api/dashboard/throttle?minutes=1440")
                .exchange()
                .expectStatus()
                .isOk();
    }

    @Test
    void samplesOlderThanTheHistoryArePruned() {
        String store = unique("pg-prune");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS); // as PostgreSQL keeps it, not rounded
        for (Instant at : List.of(now.minus(Duration.ofHours(25)), now.minus(Duration.ofHours(23)))) {
            String insert = "INSERT INTO throttle_samples (replica, store, sampled_at, limit_rps, floor_rps, cap_rps,"
                    + " rate_rps, utilization, decision, reason)"
                    + " VALUES ('host-a/1', ?, ?, 10, 10, 100, 0, 0, 'hold', 'headroom')";
            jdbc.update(insert, store, Timestamp.from(at));
        }

        listener.prune();

        assertThat(jdbc.queryForList("SELECT sampled_at FROM throttle_samples WHERE store = ?", Timestamp.class, store))
                .singleElement()
                .satisfies(at -> assertThat(at.toInstant())
                        .isEqualTo(now.minus(Duration.ofHours(23)).truncatedTo(ChronoUnit.MICROS)));
    }

    private void send(ThrottleSample sample) throws Exception {
        kafka.send(Topics.THROTTLE_SAMPLES, sample.replica(), json.writeValueAsString(sample))
                .get();
    }

    private static ThrottleSample sample(String replica, Instant at, StoreThrottle line) {
        return new ThrottleSample(replica, at, List.of(line));
    }

    private static StoreThrottle line(
            String store, int limit, int rate, double utilization, String decision, String reason) {
        return new StoreThrottle(store, limit, 10, 100, rate, utilization, decision, reason);
    }
}
