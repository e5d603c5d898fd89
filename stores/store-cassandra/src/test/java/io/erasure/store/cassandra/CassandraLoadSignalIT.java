package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.store.spi.LoadSignal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The load signal from the node's virtual tables, and pending compactions over JMX. */
class CassandraLoadSignalIT {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void theSignalIsMadeOfTheNodesBacklogsAndLatenciesEachWithinZeroAndOne() {
        try (CassandraStoreAdapter adapter = CassandraFixtures.openAdapter(Map.of(), Clock.fixed(NOW, ZoneOffset.UTC))) {
            LoadSignal signal = adapter.loadSignal();

            assertThat(signal.parts()).containsOnlyKeys("mutation_backlog", "read_backlog", "compaction_backlog",
                    "write_latency", "read_latency");
            assertThat(signal.parts().values()).allSatisfy(part -> assertThat(part).isBetween(0.0, 1.0));
            assertThat(signal.utilization()).isEqualTo(signal.parts().values().stream().mapToDouble(d -> d).max().orElseThrow());
            assertThat(signal.measuredAt()).isEqualTo(NOW);
        }
    }

    @Test
    void withAJmxPortPendingCompactionsAreAPartToo() {
        String jmxPort = String.valueOf(CassandraFixtures.engine().jmxPort());
        try (CassandraStoreAdapter adapter = CassandraFixtures.openAdapter(Map.of("jmx-port", jmxPort))) {
            LoadSignal signal = adapter.loadSignal();

            assertThat(signal.parts()).containsKey("pending_compactions");
            assertThat(signal.parts().get("pending_compactions")).isBetween(0.0, 1.0);
        }
    }
}
