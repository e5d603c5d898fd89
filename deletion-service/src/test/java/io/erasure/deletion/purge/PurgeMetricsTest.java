package io.erasure.deletion.purge;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Time to physical purge per dataset, from what the stores answer: waiting, past gc_grace, purged, unknown. */
class PurgeMetricsTest {

    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final Deque<List<OnDisk>> answers = new ArrayDeque<>();
    private Instant now = NOW;
    private final PurgeMetrics metrics = new PurgeMetrics(
            answers::removeFirst,
            new Clock() {
                @Override
                public ZoneOffset getZone() {
                    return ZoneOffset.UTC;
                }

                @Override
                public Clock withZone(ZoneId zone) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public Instant instant() {
                    return now;
                }
            },
            meters);

    @Test
    void deletedRowsWaitUntilTheStoreReportsThemPurgedAndAnUnknownStatusChangesNothing() {
        Instant deleted = NOW.minus(Duration.ofHours(3));
        answers.add(List.of(
                onDisk("events", deleted, deleted.plus(Duration.ofHours(1)), true, 40),
                onDisk("sessions", deleted, deleted.plus(Duration.ofDays(10)), true, 0),
                onDisk("logins", deleted, deleted.plus(Duration.ofHours(1)), false, 0)));
        answers.add(List.of(OnDisk.failed("events", "ks.events", deleted, "JMX unreachable", NOW)));
        answers.add(List.of(onDisk("events", deleted, deleted.plus(Duration.ofHours(1)), false, 0)));

        metrics.refresh();

        assertThat(gauge(PurgeMetrics.WAITING, "events")).isEqualTo(3 * 3600);
        assertThat(gauge(PurgeMetrics.PAST_GRACE, "events"))
                .as("two hours past gc_grace")
                .isEqualTo(2 * 3600);
        assertThat(gauge(PurgeMetrics.TOMBSTONES, "events")).isEqualTo(40);
        assertThat(gauge(PurgeMetrics.WAITING, "sessions")).isEqualTo(3 * 3600);
        assertThat(gauge(PurgeMetrics.PAST_GRACE, "sessions"))
                .as("still within gc_grace")
                .isZero();
        assertThat(gauge(PurgeMetrics.WAITING, "logins")).as("purged").isZero();

        now = NOW.plus(Duration.ofHours(1));
        metrics.refresh();

        assertThat(gauge(PurgeMetrics.WAITING, "events"))
                .as("a store that cannot be asked keeps its last answer, and the wait keeps growing")
                .isEqualTo(4 * 3600);
        assertThat(gauge(PurgeMetrics.PAST_GRACE, "events")).isEqualTo(3 * 3600);
        assertThat(meters.find(PurgeMetrics.WAITING).tag("dataset", "sessions").gauge())
                .as("no longer listed: no gauge that could keep an alert firing")
                .isNull();
        assertThat(meters.get(PurgeMetrics.CHECKS)
                        .tag("outcome", "failed")
                        .counter()
                        .count())
                .isEqualTo(1);

        metrics.refresh();

        assertThat(gauge(PurgeMetrics.WAITING, "events")).isZero();
        assertThat(gauge(PurgeMetrics.PAST_GRACE, "events")).isZero();
        assertThat(meters.get(PurgeMetrics.CHECKS)
                        .tag("outcome", "ok")
                        .counter()
                        .count())
                .isEqualTo(4);
    }

    private double gauge(String name, String dataset) {
        return meters.get(name).tag("dataset", dataset).gauge().value();
    }

    private static OnDisk onDisk(
            String dataset, Instant deleted, Instant purgeable, boolean stillOnDisk, long markers) {
        return new OnDisk(
                dataset,
                "ks." + dataset,
                deleted,
                Duration.between(deleted, purgeable).toSeconds(),
                purgeable,
                stillOnDisk,
                markers,
                "explained",
                null,
                NOW);
    }
}
