package io.erasure.store.cassandra.plan;

import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.PlannedStatement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How many tombstones a plan writes into its busiest partition: one per row delete, one per partition delete,
 * one per cleared cell when anonymising.
 */
public final class PartitionTombstones {

    private PartitionTombstones() {}

    public static int mostInOnePartition(TableShape shape, DeletePlan plan) {
        int partitionColumns = shape.partitionKey().size();
        Map<List<Object>, Integer> perPartition = new HashMap<>();
        int perStatement = DeleteExecutor.tombstonesPerStatement(plan);
        int most = 0;
        for (PlannedStatement statement : plan.statements()) {
            // values are [cut-off, partition key..., clustering key...] for every kind of delete
            List<Object> partition =
                    statement.values().subList(1, Math.min(statement.values().size(), 1 + partitionColumns));
            most = Math.max(most, perPartition.merge(partition, perStatement, Integer::sum));
        }
        return most;
    }
}
