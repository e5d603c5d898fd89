package io.erasure.deletion.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.erasure.deletion.control.ControlState;
import io.erasure.deletion.log.LogIngestionLag;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeletionGateTest {

    private final ControlState control = mock(ControlState.class);
    private final LogIngestionLag lag = mock(LogIngestionLag.class);
    private final DeletionGate gate =
            new DeletionGate(control, lag, Duration.ofMillis(1), Duration.ofMillis(20), Clock.systemUTC());
    private final DeletionTask task = DeletionTask.forRun(
            RunId.random(),
            ExecutionFixtures.profiles(),
            List.of(Map.of("id", 1L)),
            CutoffTimestamp.fromInstant(Instant.now().minusSeconds(3600)));

    @Test
    void anOpenGateLetsTheBatchGo() {
        assertThatCode(() -> gate.awaitOpen(task, Instant.MAX)).doesNotThrowAnyException();
        assertThat(gate.closed(task).getAsBoolean()).isFalse();
    }

    @Test
    void aKillSwitchThatStaysOnHandsThePollBackWithItsReason() {
        when(control.stopped("profiles")).thenReturn(true);
        when(control.stopReason("profiles")).thenReturn("kill switch on profiles: incident 42");

        assertThatThrownBy(() -> gate.awaitOpen(task, Instant.MAX))
                .isInstanceOf(DeletionPaused.class)
                .hasMessageContaining("incident 42")
                .hasMessageContaining("handed back to the consumer");
        assertThat(gate.closed(task).getAsBoolean()).isTrue();
        assertThat(gate.halted(task)).isInstanceOf(DeletionPaused.class);
    }

    @Test
    void aLaggingLogPausesLikeAKillSwitchAndSaysSo() {
        when(lag.tooFarBehind("profiles", "profiles")).thenReturn(true);
        when(lag.why("profiles", "profiles")).thenReturn("the deletion log lags 200000 records behind");

        assertThatThrownBy(() -> gate.awaitOpen(task, Instant.MAX))
                .isInstanceOf(DeletionPaused.class)
                .hasMessageContaining("lags 200000 records");
    }

    @Test
    void aCancelledRunEndsTheTaskEvenWhileItWaits() {
        when(control.stopped("profiles")).thenReturn(true);
        when(control.cancelled("profiles", task.runId())).thenReturn(true);

        assertThatThrownBy(() -> gate.awaitOpen(task, Instant.MAX)).isInstanceOf(DeletionGate.Cancelled.class);
        assertThat(gate.halted(task)).isInstanceOf(DeletionGate.Cancelled.class);
    }

    @Test
    void aSpentPollBudgetHandsThePollBackBeforeTheBatch() {
        assertThatThrownBy(() -> gate.awaitOpen(task, Instant.now().minusSeconds(1)))
                .isInstanceOf(DeletionPaused.class)
                .hasMessageContaining("time budget is spent");
    }
}
