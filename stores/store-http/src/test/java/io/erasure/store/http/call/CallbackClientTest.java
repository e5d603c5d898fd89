package io.erasure.store.http.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallbackClientTest {

    private final Clock clock = Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC);

    @Test
    void retryAfterIsReadAsSecondsOrAsAnHttpDate() {
        assertThat(CallbackClient.retryAfter("7", clock)).isEqualTo(Duration.ofSeconds(7));
        assertThat(CallbackClient.retryAfter("Sun, 01 Mar 2026 12:00:30 GMT", clock))
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(CallbackClient.retryAfter("Sun, 01 Mar 2026 11:00:00 GMT", clock))
                .isEqualTo(Duration.ZERO);
        assertThat(CallbackClient.retryAfter("soon", clock)).isNull();
        assertThat(CallbackClient.retryAfter(null, clock)).isNull();
    }

    @Test
    void headersThePlatformSetsItselfAreRefused() {
        assertThatThrownBy(() -> CallbackClient.requireSendable(Map.of("Host", "internal")))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'Host'");
        assertThatThrownBy(() -> CallbackClient.requireSendable(Map.of("idempotency-key", "x")))
                .isInstanceOf(StoreException.Fatal.class);
        // the client would refuse to send it, on every retry
        assertThatThrownBy(() -> CallbackClient.requireSendable(Map.of("Transfer-Encoding", "chunked")))
                .isInstanceOf(StoreException.Fatal.class);
        CallbackClient.requireSendable(Map.of("Authorization", "secret:t", "Content-Type", "application/json"));
    }
}
