package io.erasure.recovery.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.recovery.RecoveryScope;
import io.erasure.model.run.RunId;
import io.erasure.recovery.RecoveryTestSupport;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A recovery whose service died under it says so and can be asked again, instead of looking RUNNING for ever (a chaos
 * trial killed recovery-service during a restore by run); one an instance still runs is kept alive however long it
 * takes.
 */
class RecoveryLivenessIT extends RecoveryTestSupport {

    private RecoveryStore store() {
        return new RecoveryStore(jdbc, json);
    }

    private UUID running(Instant heardOf) {
        UUID id = store().create(
                        "recovery",
                        "liveness test",
                        new RecoveryScope.ByRun(RunId.of(unique("run"))),
                        null,
                        null,
                        false,
                        heardOf);
        store().started(id, null, 10, RestorePath.ONLINE, null, heardOf);
        jdbc.update("UPDATE recovery_requests SET heartbeat_at = ? WHERE id = ?", Timestamp.from(heardOf), id);
        return id;
    }

    @Test
    void aRecoveryNotHeardOfForTooLongIsFailedAsInterruptedAndOneStillRunningIsNot() throws Exception {
        Instant started = Instant.now();
        UUID abandoned = running(started.minus(Duration.ofMinutes(10)));
        // not stale yet (the context's own sweep must not fail it first): this instance's beat must keep it so
        UUID stillRunning = running(started.minus(Duration.ofSeconds(100)));
        RecoveryLiveness liveness = new RecoveryLiveness(store(), Duration.ofMinutes(2));
        CountDownLatch release = new CountDownLatch(1);
        Thread worker = new Thread(liveness.tracked(stillRunning, () -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        worker.start();
        try {
            liveness.beat();

            RecoveryStore.RequestView failed = store().find(abandoned).orElseThrow();
            assertThat(failed.status()).isEqualTo(RecoveryStore.Status.FAILED);
            assertThat(failed.failure()).startsWith("interrupted").contains("ask for it again");
            assertThat(store().find(stillRunning).orElseThrow().status()).isEqualTo(RecoveryStore.Status.RUNNING);
            assertThat(jdbc.queryForObject(
                                    "SELECT heartbeat_at FROM recovery_requests WHERE id = ?",
                                    Timestamp.class,
                                    stillRunning)
                            .toInstant())
                    .as("its instance beats for it")
                    .isAfterOrEqualTo(started);
        } finally {
            release.countDown();
            worker.join();
            liveness.close();
        }
    }
}
