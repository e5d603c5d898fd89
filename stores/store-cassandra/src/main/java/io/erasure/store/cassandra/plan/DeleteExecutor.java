package io.erasure.store.cassandra.plan;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.PlannedStatement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes a plan made by {@link DeletePlanner}: the row deletes of one partition go out as unlogged
 * single-partition batches (one mutation each, applied atomically on the replicas) of at most
 * {@code maxRowTombstonesPerPartition} rows; partition deletes go out alone.
 *
 * <p><b>The cap splits, it does not defer.</b> Keys beyond the cap are still deleted in this call, in further
 * batches: the SPI has no "deferred" decision, and a key left out silently would be reported as deleted
 * by the plan. So the cap bounds the tombstones one mutation puts into a partition, not the tombstones a
 * batch leaves there; pacing across batches is the deletion throttle's job.
 *
 * <p>Before running anything the plan is checked to be one this adapter made for this table: every
 * statement is this table's row or partition delete (for an anonymising batch: the clearing of exactly the
 * batch's clear columns, see {@link AnonymisingPlanner}) and is bound to the batch's cut-off. Clearing statements
 * are grouped per partition like row deletes.
 */
public final class DeleteExecutor {

    private final CqlRunner cql;
    private final int maxRowTombstonesPerPartition;

    public DeleteExecutor(CqlRunner cql, int maxRowTombstonesPerPartition) {
        this.cql = cql;
        this.maxRowTombstonesPerPartition = maxRowTombstonesPerPartition;
    }

    public DeleteOutcome execute(TableShape shape, DeletePlan plan) {
        List<Statement<?>> toRun =
                mutations(shape, plan).stream().map(this::statement).toList();
        cql.executeAll(
                "deleting from " + shape.spec().quotedTable() + " (batch "
                        + plan.batch().batchId() + ")",
                toRun);

        // an anonymised row counts as deleted: its personal data is gone
        int deleted = (int) (plan.count(Action.DELETE_ROW)
                + plan.count(Action.DELETE_PARTITION)
                + plan.count(Action.CLEAR_COLUMNS));
        int statements = plan.statements().size();
        int tombstones = statements * tombstonesPerStatement(plan);
        return new DeleteOutcome(
                deleted,
                (int) plan.count(Action.SKIP_WRITTEN_AFTER_CUTOFF),
                (int) plan.count(Action.ABSENT),
                tombstones,
                statements);
    }

    /** One row or partition tombstone per delete; one cell tombstone per cleared column when anonymising. */
    static int tombstonesPerStatement(DeletePlan plan) {
        return plan.batch().anonymising() ? plan.batch().clearColumns().size() : 1;
    }

    /**
     * The plan's statements as the mutations that will be sent: a partition delete alone, the row deletes
     * of one partition in groups of at most {@code maxRowTombstonesPerPartition}.
     */
    List<List<PlannedStatement>> mutations(TableShape shape, DeletePlan plan) {
        int partitionColumns = shape.partitionKey().size();
        List<List<PlannedStatement>> mutations = new ArrayList<>();
        Map<List<Object>, List<PlannedStatement>> rowDeletesByPartition = new LinkedHashMap<>();
        for (PlannedStatement statement : plan.statements()) {
            requireOwn(shape, plan, statement);
            if (statement.text().equals(shape.partitionDeleteCql())) {
                mutations.add(List.of(statement));
            } else {
                rowDeletesByPartition
                        .computeIfAbsent(statement.values().subList(1, 1 + partitionColumns), p -> new ArrayList<>())
                        .add(statement);
            }
        }
        for (List<PlannedStatement> rowDeletes : rowDeletesByPartition.values()) {
            for (int from = 0; from < rowDeletes.size(); from += maxRowTombstonesPerPartition) {
                mutations.add(List.copyOf(
                        rowDeletes.subList(from, Math.min(rowDeletes.size(), from + maxRowTombstonesPerPartition))));
            }
        }
        return mutations;
    }

    private Statement<?> statement(List<PlannedStatement> mutation) {
        if (mutation.size() == 1) {
            return cql.bind(mutation.get(0).text(), mutation.get(0).values());
        }
        List<BatchableStatement<?>> members = new ArrayList<>(mutation.size());
        for (PlannedStatement statement : mutation) {
            members.add(cql.prepare(statement.text()).bind(statement.values().toArray()));
        }
        return cql.configure(BatchStatement.newInstance(DefaultBatchType.UNLOGGED, members));
    }

    private static void requireOwn(TableShape shape, DeletePlan plan, PlannedStatement statement) {
        boolean anonymising = plan.batch().anonymising();
        // an anonymising batch only ever clears its own columns: a row or partition delete in its plan is foreign
        boolean oneRow = anonymising
                ? statement.text().equals(shape.clearColumnsCql(plan.batch().clearColumns()))
                : statement.text().equals(shape.rowDeleteCql());
        boolean partitionDelete = !anonymising && statement.text().equals(shape.partitionDeleteCql());
        int keyValues =
                oneRow ? shape.primaryKey().size() : shape.partitionKey().size();
        if (!(oneRow || partitionDelete)
                || statement.values().size() != 1 + keyValues
                || !Long.valueOf(plan.batch().cutoff().micros())
                        .equals(statement.values().get(0))) {
            throw new IllegalArgumentException("plan of batch " + plan.batch().batchId() + " holds a statement this"
                    + " adapter did not plan for " + shape.spec().quotedTable() + " at cut-off "
                    + plan.batch().cutoff().micros() + ": " + statement.describe() + "; plan the batch again");
        }
    }
}
