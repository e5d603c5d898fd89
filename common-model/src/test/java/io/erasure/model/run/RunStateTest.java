package io.erasure.model.run;

import static io.erasure.model.run.RunState.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class RunStateTest {

    @Test
    void happyPathIsLegal() {
        List<RunState> path =
                List.of(PENDING, AUDITING, VALIDATING, AWAITING_APPROVAL, AUTHORIZED, DELETING, VERIFYING, COMPLETED);
        for (int i = 0; i + 1 < path.size(); i++) {
            assertThat(path.get(i).canTransitionTo(path.get(i + 1)))
                    .as(path.get(i) + " -> " + path.get(i + 1))
                    .isTrue();
        }
        assertThat(VALIDATING.canTransitionTo(AUTHORIZED))
                .as("under the limit needs no approval")
                .isTrue();
        assertThat(VALIDATING.canTransitionTo(DRY_RUN_COMPLETED)).isTrue();
    }

    @ParameterizedTest
    @CsvSource({
        "PENDING, DELETING",
        "VALIDATING, DELETING",
        "AWAITING_APPROVAL, DELETING",
        "AUDITING, AUTHORIZED",
        "DELETING, COMPLETED",
        "VERIFYING, CANCELLED",
        "AUTHORIZED, AWAITING_APPROVAL",
        "DELETING, DELETING",
        "AUDITING, DRY_RUN_COMPLETED"
    })
    void illegalMovesAreRefused(RunState from, RunState to) {
        assertThat(from.canTransitionTo(to)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(
            value = RunState.class,
            names = {"COMPLETED", "FAILED", "CANCELLED", "DRY_RUN_COMPLETED"})
    void terminalStatesHaveNoWayOut(RunState terminal) {
        assertThat(terminal.isTerminal()).isTrue();
        for (RunState any : RunState.values()) {
            assertThat(terminal.canTransitionTo(any)).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = RunState.class,
            names = {"PENDING", "AUDITING", "VALIDATING", "AWAITING_APPROVAL", "AUTHORIZED", "DELETING", "VERIFYING"})
    void everyLiveStateCanFail(RunState live) {
        assertThat(live.isTerminal()).isFalse();
        assertThat(live.canTransitionTo(FAILED)).isTrue();
        assertThat(live.canTransitionTo(null)).isFalse();
    }

    @Test
    void runRefusesIllegalTransitions() {
        Run run = Run.start(RunId.random(), Fixtures.orders(), false, RunTrigger.schedule(), Fixtures.T0);
        assertThat(run.state()).isEqualTo(PENDING);
        Run auditing = run.transitionTo(AUDITING);
        assertThat(auditing.state()).isEqualTo(AUDITING);
        assertThatThrownBy(() -> auditing.transitionTo(DELETING))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot move from AUDITING to DELETING");
    }

    @Test
    void dryRunNeverReachesDeletionAndRealRunsNeverEndAsDryRun() {
        Run dry = Run.start(RunId.random(), Fixtures.orders(), true, RunTrigger.user("alice"), Fixtures.T0)
                .transitionTo(AUDITING)
                .transitionTo(VALIDATING);
        assertThatThrownBy(() -> dry.transitionTo(AUTHORIZED))
                .hasMessageContaining("is a dry-run and must never reach AUTHORIZED");
        assertThat(dry.transitionTo(DRY_RUN_COMPLETED).state()).isEqualTo(DRY_RUN_COMPLETED);

        Run real = Run.start(RunId.random(), Fixtures.orders(), false, RunTrigger.schedule(), Fixtures.T0)
                .transitionTo(AUDITING)
                .transitionTo(VALIDATING);
        assertThatThrownBy(() -> real.transitionTo(DRY_RUN_COMPLETED)).hasMessageContaining("is not a dry-run");
    }

    @Test
    void runKeepsItsFrozenSpecName() {
        assertThatThrownBy(() -> new Run(
                        RunId.random(),
                        "other",
                        Fixtures.orders(),
                        PENDING,
                        false,
                        RunTrigger.schedule(),
                        null,
                        Fixtures.T0))
                .hasMessageContaining("run.datasetName 'other' must equal the frozen spec's name 'orders'");
    }

    @Test
    void runIdIsValidatedAndSerializedAsAString() {
        RunId id = RunId.random();
        assertThat(id.value()).matches("run-[0-9a-f-]{36}");
        assertThat(Fixtures.JSON.writeValueAsString(id)).isEqualTo("\"" + id.value() + "\"");
        assertThatThrownBy(() -> RunId.of("../etc")).hasMessageStartingWith("runId must match");
    }

    @Test
    void runRoundTripsThroughJson() {
        Run run = Run.start(RunId.of("run-1"), Fixtures.orders(), false, RunTrigger.user("alice"), Fixtures.T0)
                .withCutoff(Fixtures.CUTOFF)
                .transitionTo(AUDITING);
        assertThat(Fixtures.JSON.readValue(Fixtures.JSON.writeValueAsString(run), Run.class))
                .isEqualTo(run);
    }
}
