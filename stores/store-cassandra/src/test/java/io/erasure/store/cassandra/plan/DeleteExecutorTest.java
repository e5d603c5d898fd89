package io.erasure.store.cassandra.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.cassandra.CassandraFixtures;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.DeletePlan.KeyDecision;
import io.erasure.store.spi.PlannedStatement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeleteExecutorTest {

    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(1_700_000_000_000_000L);
    private final TableShape shape = new TableShape(
            CassandraFixtures.spec("shop", "orders", KeyColumns.of(List.of("region"), List.of("order_id")), "order_id"),
            orderedTypes(),
            Map.of("item", DataTypes.TEXT));

    @Test
    void rowDeletesOfOnePartitionAreSentInGroupsOfAtMostTheCap() {
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            keys.add(Map.of("region", "eu", "order_id", i));
        }
        keys.add(Map.of("region", "us", "order_id", 1));
        DeletePlan plan = rowDeletePlan(keys);

        List<List<PlannedStatement>> mutations = new DeleteExecutor(null, 3).mutations(shape, plan);

        assertThat(mutations).extracting(List::size).containsExactly(3, 3, 1, 1);
        assertThat(mutations.get(0))
                .allSatisfy(s -> assertThat(s.values().get(1)).isEqualTo("\"eu\""));
        assertThat(mutations.get(3).get(0).values().get(1)).isEqualTo("\"us\"");
        assertThat(mutations.stream().mapToInt(List::size).sum()).isEqualTo(8);
    }

    @Test
    void aPlanStatementNotAtTheBatchCutoffIsRefused() {
        List<Map<String, Object>> keys = List.of(Map.of("region", "eu", "order_id", 1));
        DeleteBatch batch = new DeleteBatch(shape.spec(), "batch-1", CUTOFF, keys);
        List<Object> values = new ArrayList<>(List.of(CUTOFF.micros() + 1));
        values.addAll(shape.keyValues(shape.primaryKey(), keys.get(0)));
        DeletePlan forged = new DeletePlan(
                batch,
                List.of(new PlannedStatement(shape.rowDeleteCql(), values)),
                List.of(new KeyDecision(keys.get(0), Action.DELETE_ROW)));

        assertThatThrownBy(() -> new DeleteExecutor(null, 3).mutations(shape, forged))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("did not plan");
    }

    @Test
    void aPlanStatementWithForeignTextIsRefused() {
        List<Map<String, Object>> keys = List.of(Map.of("region", "eu", "order_id", 1));
        DeleteBatch batch = new DeleteBatch(shape.spec(), "batch-1", CUTOFF, keys);
        DeletePlan forged = new DeletePlan(
                batch,
                List.of(new PlannedStatement("TRUNCATE \"shop\".\"orders\"", List.of(CUTOFF.micros()))),
                List.of(new KeyDecision(keys.get(0), Action.DELETE_ROW)));

        assertThatThrownBy(() -> new DeleteExecutor(null, 3).mutations(shape, forged))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TRUNCATE");
    }

    @Test
    void clearingStatementsAreGroupedPerPartitionLikeRowDeletes() {
        List<Map<String, Object>> keys = List.of(
                Map.of("region", "eu", "order_id", 1),
                Map.of("region", "eu", "order_id", 2),
                Map.of("region", "us", "order_id", 1));
        DeleteBatch batch = new DeleteBatch(shape.spec(), "batch-1", CUTOFF, keys, List.of("item"));
        List<PlannedStatement> statements = new ArrayList<>();
        List<KeyDecision> decisions = new ArrayList<>();
        for (Map<String, Object> key : keys) {
            statements.add(new PlannedStatement(shape.clearColumnsCql(List.of("item")), values(key)));
            decisions.add(new KeyDecision(key, Action.CLEAR_COLUMNS));
        }

        List<List<PlannedStatement>> mutations =
                new DeleteExecutor(null, 3).mutations(shape, new DeletePlan(batch, statements, decisions));

        assertThat(mutations).extracting(List::size).containsExactly(2, 1);
    }

    @Test
    void aRowOrPartitionDeleteInThePlanOfAnAnonymisingBatchIsRefused() {
        List<Map<String, Object>> keys = List.of(Map.of("region", "eu", "order_id", 1));
        DeleteBatch batch = new DeleteBatch(shape.spec(), "batch-1", CUTOFF, keys, List.of("item"));
        DeletePlan forged = new DeletePlan(
                batch,
                List.of(new PlannedStatement(shape.rowDeleteCql(), values(keys.get(0)))),
                List.of(new KeyDecision(keys.get(0), Action.CLEAR_COLUMNS)));

        assertThatThrownBy(() -> new DeleteExecutor(null, 3).mutations(shape, forged))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("did not plan");
    }

    @Test
    void clearingOtherColumnsThanTheBatchNamesIsRefused() {
        List<Map<String, Object>> keys = List.of(Map.of("region", "eu", "order_id", 1));
        DeleteBatch batch = new DeleteBatch(shape.spec(), "batch-1", CUTOFF, keys, List.of("item"));
        DeletePlan forged = new DeletePlan(
                batch,
                List.of(new PlannedStatement(shape.clearColumnsCql(List.of("note")), values(keys.get(0)))),
                List.of(new KeyDecision(keys.get(0), Action.CLEAR_COLUMNS)));

        assertThatThrownBy(() -> new DeleteExecutor(null, 3).mutations(shape, forged))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("did not plan");
    }

    private List<Object> values(Map<String, Object> key) {
        List<Object> values = new ArrayList<>(List.of(CUTOFF.micros()));
        values.addAll(shape.keyValues(shape.primaryKey(), key));
        return values;
    }

    private DeletePlan rowDeletePlan(List<Map<String, Object>> keys) {
        DeleteBatch batch = new DeleteBatch(shape.spec(), "batch-1", CUTOFF, keys);
        List<PlannedStatement> statements = new ArrayList<>();
        List<KeyDecision> decisions = new ArrayList<>();
        for (Map<String, Object> key : keys) {
            List<Object> values = new ArrayList<>(List.of(CUTOFF.micros()));
            values.addAll(shape.keyValues(shape.primaryKey(), key));
            statements.add(new PlannedStatement(shape.rowDeleteCql(), values));
            decisions.add(new KeyDecision(key, Action.DELETE_ROW));
        }
        return new DeletePlan(batch, statements, decisions);
    }

    private static Map<String, DataType> orderedTypes() {
        Map<String, DataType> types = new LinkedHashMap<>();
        types.put("region", DataTypes.TEXT);
        types.put("order_id", DataTypes.INT);
        return types;
    }
}
