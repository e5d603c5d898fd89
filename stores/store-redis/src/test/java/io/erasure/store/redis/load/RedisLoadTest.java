package io.erasure.store.redis.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.erasure.store.spi.LoadSignal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedisLoadTest {

    private static final String INFO = """
            # Clients\r
            connected_clients:25\r
            blocked_clients:0\r
            maxclients:100\r
            \r
            # Stats\r
            total_commands_processed:123456\r
            instantaneous_ops_per_sec:40000\r
            """;

    private final RedisLoad load = new RedisLoad(null, 50_000, 20, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), () -> 0);

    @Test
    void theBusiestPartDecides() {
        LoadSignal signal = load.signal(RedisLoad.parseInfo(INFO), 5.0);

        assertThat(signal.parts()).containsOnlyKeys("ops", "latency", "connections");
        assertThat(signal.parts().get("ops")).isCloseTo(0.8, within(1e-9));
        assertThat(signal.parts().get("latency")).isCloseTo(0.25, within(1e-9));
        assertThat(signal.parts().get("connections")).isCloseTo(0.25, within(1e-9));
        assertThat(signal.utilization()).isCloseTo(0.8, within(1e-9));
    }

    @Test
    void aSlowRoundTripSaturatesAndMissingFieldsFallBack() {
        LoadSignal signal = load.signal(Map.of("connected_clients", "100"), 45.0);

        assertThat(signal.parts().get("connections")).isCloseTo(0.01, within(1e-9));
        assertThat(signal.parts().get("ops")).isZero();
        assertThat(signal.utilization()).isEqualTo(1.0);
    }
}
