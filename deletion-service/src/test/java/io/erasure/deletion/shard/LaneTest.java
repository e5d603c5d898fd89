package io.erasure.deletion.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** Exactly one lane takes a task whose headers name its store, and none can tell one without them. */
class LaneTest {

    private static final Set<String> CONFIGURED = Set.of("pg-main", "cass-main");
    private static final List<Lane> LANES = List.of(Lane.of("pg-main", false, CONFIGURED),
            Lane.of("pg-main", true, CONFIGURED), Lane.of("cass-main", false, CONFIGURED),
            Lane.of("cass-main", true, CONFIGURED), Lane.fallback(CONFIGURED));

    @Test
    void aTaskOfAConfiguredStoreIsTakenByItsLaneAlone() {
        assertThat(takers(headers("pg-main", false))).containsExactly("deletion-lane-pg-main");
        assertThat(takers(headers("pg-main", true))).containsExactly("deletion-lane-pg-main-paced");
        assertThat(takers(headers("cass-main", true))).containsExactly("deletion-lane-cass-main-paced");
    }

    @Test
    void aTaskOfAStoreWithoutALaneIsTheFallbacksPacedOrNot() {
        assertThat(takers(headers("redis-main", false))).containsExactly("deletion-lane-unconfigured");
        assertThat(takers(headers("redis-main", true))).containsExactly("deletion-lane-unconfigured");
    }

    @Test
    void withoutTheStoreHeaderNoLaneCanTellWithoutReadingTheTask() {
        RecordHeaders onlyPaced = new RecordHeaders();
        onlyPaced.add(Topics.TASK_PACED, "true".getBytes(StandardCharsets.UTF_8));
        for (Lane lane : LANES) {
            assertThat(lane.takes(new RecordHeaders())).as(lane.id()).isEqualTo(Optional.empty());
            assertThat(lane.takes(onlyPaced)).as(lane.id()).isEqualTo(Optional.empty());
        }
    }

    private static List<String> takers(Headers headers) {
        return LANES.stream().filter(lane -> lane.takes(headers).orElseThrow()).map(Lane::id).toList();
    }

    private static Headers headers(String store, boolean paced) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.TASK_STORE, store.getBytes(StandardCharsets.UTF_8));
        if (paced) {
            headers.add(Topics.TASK_PACED, "true".getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }
}
