package io.erasure.controlplane.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.controlplane.actions.ActionsLog;
import io.erasure.controlplane.run.RunService;
import io.erasure.model.dataset.DatasetSpec;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

class RunSchedulerIT extends ControlPlaneTestSupport {

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    RunService runService;

    @Autowired
    ActionsLog actions;

    @Test
    void twoSchedulerReplicasOnOneDatabaseStartADueRunExactlyOnce() throws Exception {
        DatasetSpec spec = registerDataset();
        jdbc.update(
                "UPDATE datasets SET next_run_at = ? WHERE name = ?",
                Timestamp.from(Instant.now().minusSeconds(5)),
                spec.name());
        RunScheduler replicaA = new RunScheduler(jdbc, transactions, runService, actions, Clock.systemUTC());
        RunScheduler replicaB = new RunScheduler(jdbc, transactions, runService, actions, Clock.systemUTC());

        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<Integer>> ticks = new ArrayList<>();
        for (RunScheduler replica : List.of(replicaA, replicaB)) {
            Callable<Integer> tick = () -> {
                together.await();
                int started = 0;
                for (int i = 0; i < 3; i++) {
                    started += replica.startDueRuns();
                }
                return started;
            };
            ticks.add(pool.submit(tick));
        }
        int started = 0;
        for (Future<Integer> tick : ticks) {
            started += tick.get();
        }
        pool.shutdown();

        assertThat(jdbc.queryForObject("SELECT count(*) FROM runs WHERE dataset = ?", Integer.class, spec.name()))
                .isEqualTo(1);
        assertThat(started).isEqualTo(1);
        // no replica even tried a second start (which only the overlap guard would have stopped)
        assertThat(actionsOf("dataset:" + spec.name()))
                .extracting(a -> a.get("action"))
                .doesNotContain("run.skipped");
        Timestamp next =
                jdbc.queryForObject("SELECT next_run_at FROM datasets WHERE name = ?", Timestamp.class, spec.name());
        assertThat(next.toInstant()).isAfter(Instant.now());
        assertThat(jdbc.queryForObject("SELECT triggered_by FROM runs WHERE dataset = ?", String.class, spec.name()))
                .isEqualTo(RunService.SCHEDULER);
    }

    @Test
    void aDueDatasetWhoseRunIsStillGoingIsSkippedNotOverlapped() {
        DatasetSpec spec = registerDataset();
        as("owner")
                .post()
                .uri("/api/datasets/" + spec.name() + "/runs")
                .exchange()
                .expectStatus()
                .isCreated();
        jdbc.update(
                "UPDATE datasets SET next_run_at = ? WHERE name = ?",
                Timestamp.from(Instant.now().minusSeconds(5)),
                spec.name());

        new RunScheduler(jdbc, transactions, runService, actions, Clock.systemUTC()).startDueRuns();

        assertThat(jdbc.queryForObject("SELECT count(*) FROM runs WHERE dataset = ?", Integer.class, spec.name()))
                .isEqualTo(1);
        assertThat(actionsOf("dataset:" + spec.name()))
                .extracting(a -> a.get("action"))
                .contains("run.skipped");
    }
}
