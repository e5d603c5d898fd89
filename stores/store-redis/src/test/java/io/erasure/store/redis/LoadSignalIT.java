package io.erasure.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.StoreAdapter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The load signal from a real server's INFO and a measured PING. */
class LoadSignalIT {

    @Test
    void theLoadSignalIsAUtilizationMadeOfItsParts() {
        try (StoreAdapter adapter = TestRedis.open(0, Map.of())) {
            LoadSignal signal = adapter.loadSignal();

            assertThat(signal.parts()).containsOnlyKeys("ops", "latency", "connections");
            // this adapter's own connection is one of the server's clients
            assertThat(signal.parts().get("connections")).isPositive();
            assertThat(signal.utilization())
                    .isBetween(0.0, 1.0)
                    .isEqualTo(signal.parts().values().stream()
                            .mapToDouble(Double::doubleValue)
                            .max()
                            .orElseThrow());
        }
    }
}
