package io.erasure.store.cassandra.plan;

import static org.assertj.core.api.Assertions.assertThat;

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

class PartitionTombstonesTest {

    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(1_700_000_000_000_000L);
    private final TableShape shape = new TableShape(
            CassandraFixtures.spec("shop", "orders", KeyColumns.of(List.of("region"), List.of("order_id")), "order_id"),
            keyTypes(),
            Map.of("item", DataTypes.TEXT));

    @Test
    void theBusiestPartitionCountsOneTombstonePerRowDeleteAndAPartitionDeleteCountsOne() {
        List<Map<String, Object>> keys = new ArrayList<>();
        List<PlannedStatement> statements = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            keys.add(Map.of("region", "eu", "order_id", i));
            statements.add(
                    new PlannedStatement(shape.rowDeleteCql(), List.of(CUTOFF.micros(), "\"eu\"", String.valueOf(i))));
        }
        keys.add(Map.of("region", "us", "order_id", 1));
        keys.add(Map.of("region", "us", "order_id", 2));
        statements.add(new PlannedStatement(shape.partitionDeleteCql(), List.of(CUTOFF.micros(), "\"us\"")));
        DeleteBatch batch = new DeleteBatch(shape.spec(), "batch-1", CUTOFF, keys);
        List<KeyDecision> decisions = keys.stream()
                .map(key -> new KeyDecision(
                        key, key.get("region").equals("eu") ? Action.DELETE_ROW : Action.DELETE_PARTITION))
                .toList();

        int most = PartitionTombstones.mostInOnePartition(shape, new DeletePlan(batch, statements, decisions));

        assertThat(most).isEqualTo(4);
    }

    private static Map<String, DataType> keyTypes() {
        Map<String, DataType> types = new LinkedHashMap<>();
        types.put("region", DataTypes.TEXT);
        types.put("order_id", DataTypes.INT);
        return types;
    }
}
