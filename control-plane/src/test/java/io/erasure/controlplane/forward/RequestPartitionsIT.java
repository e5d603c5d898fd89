package io.erasure.controlplane.forward;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.ControlPlaneTestSupport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

/** deletion_requests is partitioned by month, created ahead, and finished requests go after their retention. */
class RequestPartitionsIT extends ControlPlaneTestSupport {

    @Autowired
    RequestPartitions partitions;

    @Autowired
    DeletionRequests requests;

    @Autowired
    Clock clock;

    @Test
    void monthsAreCreatedAheadAndOnlyFinishedRequestsPastTheirRetentionAreRemoved() {
        Integer partitioned = jdbc.queryForObject("""
                SELECT count(*) FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
                WHERE c.relname = 'deletion_requests'""", Integer.class);
        assertThat(partitioned).isEqualTo(1);
        Instant now = clock.instant();
        partitions.maintain(now);
        YearMonth month = YearMonth.from(now.atZone(ZoneOffset.UTC));
        assertThat(partitions.partitions()).containsValues(month, month.plusMonths(1), month.plusMonths(2));

        String empty = source();
        String purged = submit(empty, "1");
        String withData = source();
        DatasetSpecs.register(this, withData);
        String tombstoned = submit(withData, "2");
        assertThat(requests.find(purged).orElseThrow().state()).isEqualTo(RequestState.PURGED);
        assertThat(requests.find(tombstoned).orElseThrow().state()).isEqualTo(RequestState.TOMBSTONED);

        // 91 days on, past the default retention of 90 days
        partitions.maintain(now.plus(Duration.ofDays(91)));
        assertThat(requests.find(purged)).as("finished and past its retention").isEmpty();
        assertThat(requests.find(tombstoned))
                .as("unresolved requests are never removed")
                .isPresent();
        assertThat(partitions.partitions())
                .as("a month holding unresolved requests is kept")
                .containsValue(month);
    }

    private String source() {
        String source = unique("src");
        as("operator")
                .post()
                .uri("/api/identifier-sources")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(source(source)))
                .exchange()
                .expectStatus()
                .isCreated();
        return source;
    }

    private String submit(String type, String id) {
        Map<?, ?> result = as("publisher")
                .post()
                .uri("/api/forward-requests")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"aggregateType\": \"" + type + "\", \"aggregateId\": \"" + id + "\", \"version\": 1}")
                .exchange()
                .expectStatus()
                .isAccepted()
                .returnResult(Map.class)
                .getResponseBody();
        return (String) result.get("requestId");
    }

    /** Registers a dataset on a source as "owner". */
    static final class DatasetSpecs {
        static void register(RequestPartitionsIT test, String source) {
            test.as("owner")
                    .post()
                    .uri("/api/datasets")
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(test.json.writeValueAsString(
                            dataset(unique("ds"), source).build()))
                    .exchange()
                    .expectStatus()
                    .isCreated();
        }
    }
}
