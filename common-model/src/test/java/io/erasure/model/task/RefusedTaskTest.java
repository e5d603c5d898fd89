package io.erasure.model.task;

import static io.erasure.model.Fixtures.CUTOFF;
import static io.erasure.model.Fixtures.JSON;
import static io.erasure.model.Fixtures.T0;
import static io.erasure.model.Fixtures.key;
import static io.erasure.model.Fixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization;
import java.util.List;
import org.junit.jupiter.api.Test;

class RefusedTaskTest {

    private final DeletionTask task = DeletionTask.forRun(RunId.of("run-1"), orders(),
            List.of(key("customer_id", 1, "order_id", "o-1")), CUTOFF);

    @Test
    void aTaskRefusedAgainWhereItWasReadHasTheSameIdAndAnotherMessageAnother() {
        RefusedTask first = RefusedTask.of(task, Authorization.Kind.RUN, "unsigned", "no authorization",
                "erasure.deletion.tasks", 3, 42, T0);
        RefusedTask again = RefusedTask.of(task, Authorization.Kind.RUN, "unsigned", "no authorization",
                "erasure.deletion.tasks", 3, 42, T0.plusSeconds(60));
        RefusedTask elsewhere = RefusedTask.of(task, Authorization.Kind.RUN, "unsigned", "no authorization",
                "erasure.deletion.tasks", 3, 43, T0);

        assertThat(again.refusalId()).isEqualTo(first.refusalId());
        assertThat(elsewhere.refusalId()).isNotEqualTo(first.refusalId());
        assertThat(first.source()).isEqualTo("erasure.deletion.tasks-3@42");
        assertThat(first.originId()).isEqualTo("run-1");
        assertThat(first.requestId()).isNull();
        assertThat(first.keyId()).isNull();
    }

    @Test
    void itClaimsExactlyOneOriginAndALongReasonIsCut() {
        assertThatThrownBy(() -> new RefusedTask("r", "task-1", "run-1", "req-1", "orders", Authorization.Kind.RUN,
                "unsigned", "x", null, T0, "s")).hasMessageContaining("exactly one of runId and requestId");
        RefusedTask longReason = new RefusedTask("r", "task-1", null, "req-1", "orders", Authorization.Kind.FORWARD,
                "keys-not-covered", "k".repeat(5_000), null, T0, "s");
        assertThat(longReason.reason()).hasSize(RefusedTask.MAX_REASON).endsWith("…");
    }

    @Test
    void itReadsBackAsWritten() {
        RefusedTask refused = RefusedTask.of(task, Authorization.Kind.RUN, "unsigned", "no authorization",
                "erasure.deletion.tasks", 0, 7, T0);

        assertThat(JSON.readValue(JSON.writeValueAsString(refused), RefusedTask.class)).isEqualTo(refused);
    }
}
