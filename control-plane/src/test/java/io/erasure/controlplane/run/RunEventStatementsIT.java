package io.erasure.controlplane.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.StatementCounter;
import io.erasure.controlplane.metrics.RunMetrics;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.run.RunState;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Issue 19: what one {@code BatchCompleted} costs in SQL round trips, counted statement by statement: the same at the
 * 300th batch as at the first, and no more than the run's lock, the batch, its totals and the run's counters and counts
 * need. The events go through a {@link RunProgress} of this test's own, on a counting connection, in the transaction
 * the listener gives them. Checking each event's seal costs no statement.
 */
class RunEventStatementsIT extends RunEventsTestSupport {

    private static final int TASKS = 300;

    @Autowired
    DataSource dataSource;

    @Autowired
    RunCommands commands;

    @Autowired
    RunReceipts receipts;

    @Autowired
    Clock clock;

    @Autowired
    RunApprovals approvals;

    @Autowired
    RunEventGate gate;

    @Autowired
    RunMetrics metrics;

    @Test
    void aBatchResultCostsSevenStatementsWhateverTheRunsBatchCount() {
        DatasetSpec spec = registerDataset();
        String runId = runUntilDeleting(spec, 900, TASKS);
        StatementCounter counter = new StatementCounter(thread -> "all");
        DataSource counted = counter.wrap(dataSource);
        JdbcTemplate jdbc = new JdbcTemplate(counted);
        RunProgress progress = new RunProgress(
                new RunStore(jdbc, json, clock),
                new RunBatches(jdbc, clock),
                commands,
                receipts,
                jdbc,
                clock,
                approvals,
                gate,
                metrics);
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(counted));

        List<Long> statements = new ArrayList<>();
        for (int i = 0; i < TASKS - 1; i++) {
            EventEnvelope event = event(
                    runId,
                    new BatchCompleted(
                            spec.name(),
                            "task-" + i,
                            "b-" + i,
                            null,
                            new BatchCounts(3, 0, 0, 0),
                            ReadBackResult.CLEAN,
                            0,
                            null,
                            0,
                            null));
            long before = counter.total();
            transaction.executeWithoutResult(status -> progress.apply(event));
            statements.add(counter.total() - before);
        }

        RunRecord run = runs.find(runId).orElseThrow();
        assertThat(run.batchesCompleted()).isEqualTo(TASKS - 1);
        assertThat(run.state()).as("one batch has not reported").isEqualTo(RunState.DELETING);
        assertThat(statements)
                .as("statements per BatchCompleted, first to last")
                .containsOnly(7L);
    }
}
