package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.erasure.store.spi.LoadSignal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The load signal from the node's virtual tables, and pending compactions over JMX. */
class CassandraLoadSignalIT {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void theSignalIsMadeOfTheNodesBacklogsAndLatenciesEachWithinZeroAndOne() {
        try (CassandraStoreAdapter adapter =
                CassandraFixtures.openAdapter(Map.of(), Clock.fixed(NOW, ZoneOffset.UTC))) {
            LoadSignal signal = adapter.loadSignal();

            assertThat(signal.parts())
                    .containsOnlyKeys(
                            "mutation_backlog", "read_backlog", "compaction_backlog", "write_latency", "read_latency");
            assertThat(signal.parts().values())
                    .allSatisfy(part -> assertThat(part).isBetween(0.0, 1.0));
            assertThat(signal.utilization())
                    .isEqualTo(signal.parts().values().stream()
                            .mapToDouble(d -> d)
                            .max()
                            .orElseThrow());
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
            assertThat(signal.parts()).containsKey("cpu");
            assertThat(signal.parts().get("cpu")).isBetween(0.0, 1.0);
        }
    }

    @Test
    void withAJmxPortTheSignalCarriesTheNodesClientReadP99OverTheReadsOfTheWindow() {
        String jmxPort = String.valueOf(CassandraFixtures.engine().jmxPort());
        SteppingClock clock = new SteppingClock(NOW);
        try (CassandraStoreAdapter adapter = CassandraFixtures.openAdapter(Map.of("jmx-port", jmxPort), clock);
                CqlSession session = CassandraFixtures.directSession()) {
            assertThat(adapter.loadSignal().readLatency())
                    .as("the first reading only opens a window")
                    .isNull();

            PreparedStatement read = session.prepare("SELECT release_version FROM system.local WHERE key = 'local'");
            for (int i = 0; i < 300; i++) {
                session.execute(read.bind());
            }
            clock.advance(Duration.ofSeconds(1));
            LoadSignal.ReadLatency latency = adapter.loadSignal().readLatency();

            assertThat(latency).isNotNull();
            assertThat(latency.reads()).as("the node counted our reads").isGreaterThanOrEqualTo(300);
            // the direct session reads at LOCAL_ONE, the adapter at LOCAL_QUORUM: the node tells them apart
            assertThat(latency.otherReads())
                    .as("another client's, not the adapter's own")
                    .isEqualTo(latency.reads());
            assertThat(latency.p99Millis())
                    .as("a real p99 in ms, from the node's microsecond buckets")
                    .isStrictlyBetween(0.0, 10_000.0);
            assertThat(latency.windowEnd()).isEqualTo(NOW.plusSeconds(1));
            assertThat(adapter.loadSignal().readLatency())
                    .as("asked again: the same window, counted once by its end")
                    .isEqualTo(latency);
        }
    }
}
