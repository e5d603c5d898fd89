package io.erasure.controlplane.run;

import static io.erasure.controlplane.run.RunCopiesIT.sourceBatch;
import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.S3Engine;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.run.RunState;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A run event that cannot be applied while a dependency is away is applied once it is back: the last batch of a run
 * arrives while S3 (where its receipt goes) is down. Before, the listener's default error handler tried it ten times
 * in a few milliseconds and skipped it, and the run stayed DELETING for ever (found by a chaos trial).
 */
class RunEventsThroughOutagesIT extends RunEventsTestSupport {

    @Test
    void theLastBatchArrivingWhileS3IsDownCompletesTheRunOnceS3IsBack() throws Exception {
        DatasetSpec spec = registerDataset();
        String runId = runUntilDeleting(spec, 3, 1);
        S3Engine s3 = LocalEngines.s3();
        s3.stop();
        try {
            send(event(runId, sourceBatch(spec, "b-1", 3, 0)));
            Thread.sleep(Duration.ofSeconds(8).toMillis()); // the old handler gave up within milliseconds
            assertThat(runs.find(runId).orElseThrow().state())
                    .as("nothing is completed without its receipt")
                    .isEqualTo(RunState.DELETING);
        } finally {
            s3.start();
        }

        RunRecord done = awaitRun(runId, run -> run.state() == RunState.COMPLETED, Duration.ofSeconds(90));
        assertThat(done.batchesCompleted()).isEqualTo(1);
        assertThat(s3Receipt(runId)).contains("\"runId\":\"" + runId + "\"");
    }
}
