package io.erasure.store.cassandra.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.store.cassandra.guard.NodeStatus.Reachability;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class NodeDowntimesTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final UUID HOST = UUID.randomUUID();

    private final NodeDowntimes downtimes = new NodeDowntimes(Clock.fixed(T0, ZoneOffset.UTC));

    @Test
    void aNodeIsDownSinceItWasFirstSeenDownAndWasLastUpWhenLastSeenUp() {
        downtimes.observe(HOST, Reachability.UP, T0);
        downtimes.observe(HOST, Reachability.UP, T0.plusSeconds(60));
        downtimes.observe(HOST, Reachability.DOWN, T0.plusSeconds(120));

        NodeDowntimes.Seen seen = downtimes.observe(HOST, Reachability.DOWN, T0.plusSeconds(3600));

        assertThat(seen.downSince()).contains(T0.plusSeconds(120));
        assertThat(seen.lastUp()).contains(T0.plusSeconds(60));
    }

    @Test
    void comingBackUpEndsTheDownSpellAndANewOneStartsAfresh() {
        downtimes.observe(HOST, Reachability.DOWN, T0);
        downtimes.observe(HOST, Reachability.UP, T0.plusSeconds(10));

        NodeDowntimes.Seen seen = downtimes.observe(HOST, Reachability.DOWN, T0.plusSeconds(20));

        assertThat(seen.downSince()).contains(T0.plusSeconds(20));
        assertThat(seen.lastUp()).contains(T0.plusSeconds(10));
    }

    @Test
    void aNodeDownWhenFirstSeenWasNeverSeenUpAndAnUnknownStateChangesNothing() {
        downtimes.observe(HOST, Reachability.DOWN, T0);

        NodeDowntimes.Seen seen = downtimes.observe(HOST, Reachability.UNKNOWN, T0.plusSeconds(30));

        assertThat(seen.downSince()).contains(T0);
        assertThat(seen.lastUp()).isEqualTo(Optional.empty());
    }
}
