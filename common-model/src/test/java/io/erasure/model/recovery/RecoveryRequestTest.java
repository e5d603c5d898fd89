package io.erasure.model.recovery;

import static io.erasure.model.Fixtures.JSON;
import static io.erasure.model.Fixtures.T0;
import static io.erasure.model.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.run.RunId;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecoveryRequestTest {

    @Test
    void timeWindowMustBeOrdered() {
        assertThatThrownBy(() -> new RecoveryScope.ByTimeWindow("orders", T0, T0))
                .hasMessageStartingWith("scope.from must be before scope.to");
        assertThatThrownBy(() -> new RecoveryScope.ByTimeWindow("orders", T0.plusSeconds(1), T0))
                .hasMessageStartingWith("scope.from must be before scope.to");
    }

    @Test
    void requiresScopeAndRequester() {
        assertThatThrownBy(() -> RecoveryRequest.create("alice", null, true, T0))
                .hasMessageContaining("recovery.scope");
        assertThatThrownBy(() -> RecoveryRequest.create(" ", new RecoveryScope.ByRun(RunId.of("run-1")), true, T0))
                .hasMessageStartingWith("recovery.requester is required");
        assertThatThrownBy(() -> new RecoveryScope.ByKeys("orders", List.of()))
                .hasMessage("scope.keys must contain at least one element");
    }

    @Test
    void everyScopeRoundTripsWithItsType() {
        List<RecoveryScope> scopes = List.of(
                new RecoveryScope.ByKeys("orders", List.of(key("customer_id", 42, "order_id", "o-9"))),
                new RecoveryScope.ByTimeWindow("orders", T0, T0.plusSeconds(3600)),
                new RecoveryScope.ByRun(RunId.of("run-1")));
        for (RecoveryScope scope : scopes) {
            RecoveryRequest request =
                    RecoveryRequest.create("alice", scope, false, Instant.parse("2024-02-01T00:00:00Z"));
            String json = JSON.writeValueAsString(request);
            RecoveryRequest back = JSON.readValue(json, RecoveryRequest.class);
            assertThat(back).isEqualTo(request);
            assertThat(back.scope()).isExactlyInstanceOf(scope.getClass());
        }
    }
}
