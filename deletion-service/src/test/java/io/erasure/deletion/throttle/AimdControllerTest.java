package io.erasure.deletion.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AimdControllerTest {

    private final AimdController aimd = new AimdController(0.3, 100, 0.5, 10);

    @Test
    void underTheTargetTheRateGrowsByTheStepUpToTheCap() {
        assertThat(aimd.next(1_000, 5_000, 0.5, 0.2)).isEqualTo(1_100);
        assertThat(aimd.next(4_950, 5_000, 0.5, 0.2)).isEqualTo(5_000);
    }

    @Test
    void overTheHeadroomTargetTheRateIsCutByTheFactor() {
        assertThat(aimd.target()).isEqualTo(0.7);
        assertThat(aimd.next(1_000, 5_000, 0.71, 0.2)).isEqualTo(500);
        assertThat(aimd.next(1_000, 5_000, 0.70, 0.2))
                .as("exactly at the target is not over it")
                .isEqualTo(1_100);
    }

    @Test
    void slowBatchesCountAsOverloadEvenWhenTheSignalLooksIdle() {
        assertThat(aimd.next(1_000, 5_000, 0.1, 1.5)).isEqualTo(500);
    }

    @Test
    void theRateNeverFallsBelowTheFloorSoARunAlwaysProgresses() {
        assertThat(aimd.next(12, 5_000, 1.0, 3)).isEqualTo(10);
    }

    @Test
    void aSmallerShareOfTheCapPullsTheRateDown() {
        assertThat(aimd.next(3_000, 1_250, 0.2, 0.1)).isEqualTo(1_250);
    }

    @Test
    void theLiveReadsMayRiseByLessTheMoreHeadroomIsKept() {
        assertThat(new AimdController(0.3, 100, 0.7, 10).readLatencyLimit()).isCloseTo(1.3, within(1e-9));
        assertThat(new AimdController(0.5, 100, 0.7, 10).readLatencyLimit()).isLessThan(1.3);
        assertThat(new AimdController(0.1, 100, 0.7, 10).readLatencyLimit()).isGreaterThan(1.3);
        assertThat(new AimdController(0.99, 100, 0.7, 10).readLatencyLimit()).isCloseTo(1.0, within(0.01));
    }

    @Test
    void liveReadsSlowedPastTheAllowanceAreOverloadAtAnyUtilization() {
        AimdController headroom30 = new AimdController(0.3, 100, 0.7, 10);
        assertThat(headroom30.overloaded(0.0, 1.31, 0)).isTrue();
        assertThat(headroom30.overloaded(0.0, 1.29, 0)).isFalse();
        assertThat(headroom30.overloaded(0.0, 0, 0))
                .as("nothing known: not overloaded")
                .isFalse();
    }

    @Test
    void aCutAppliesToWhatWasSentWhenThatIsBelowTheLimit() {
        assertThat(aimd.next(5_000, 1_000, 5_000, true)).isEqualTo(500);
        assertThat(aimd.next(800, 1_000, 5_000, true)).isEqualTo(400);
        assertThat(aimd.next(800, 1_000, 5_000, false)).isEqualTo(900);
    }

    @Test
    void belowTheSlowStartThresholdAFilledRateDoublesUpToIt() {
        assertThat(aimd.next(500, 500, 5_000, false, 5_000)).isEqualTo(1_000);
        assertThat(aimd.next(500, 250, 5_000, false, 5_000))
                .as("half used still counts as filled")
                .isEqualTo(1_000);
        assertThat(aimd.next(3_000, 3_000, 5_000, false, 5_000))
                .as("never past the threshold")
                .isEqualTo(5_000);
        assertThat(aimd.next(3_000, 3_000, 10_000, false, 4_000))
                .as("a threshold below the cap")
                .isEqualTo(4_000);
    }

    @Test
    void aRateDeletionDoesNotFillOrOneAtTheThresholdGrowsByTheStep() {
        assertThat(aimd.next(500, 200, 5_000, false, 5_000)).isEqualTo(600);
        assertThat(aimd.next(500, 0, 5_000, false, 5_000)).isEqualTo(600);
        assertThat(aimd.next(700, 700, 5_000, false, 700)).isEqualTo(800);
    }

    @Test
    void nothingSentInAnOverloadedStepCutsTheRateItself() {
        assertThat(aimd.next(1_000, 0, 5_000, true, 5_000)).isEqualTo(500);
    }
}
