package io.erasure.store.postgres;

import static io.erasure.store.postgres.Times.BEFORE;
import static io.erasure.store.postgres.Times.CUTOFF;
import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.StoreAdapter;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Deletes run in transactions of batch-size keys, counted by the database itself (a statement trigger). */
class BatchTransactionsIT {

    @Test
    void thousandKeysWithBatchSize200AreFiveTransactionsOf200Rows() {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS batching");
        TestDatabase.execute("DROP TABLE IF EXISTS batching.items, batching.deletes_seen");
        TestDatabase.execute("CREATE TABLE batching.items (id bigint PRIMARY KEY, updated_at timestamptz NOT NULL)");
        TestDatabase.execute("CREATE TABLE batching.deletes_seen (txid bigint, rows bigint)");
        TestDatabase.execute(
                "CREATE OR REPLACE FUNCTION batching.count_deletes() RETURNS trigger LANGUAGE plpgsql AS $$"
                        + " BEGIN INSERT INTO batching.deletes_seen SELECT txid_current(), count(*)"
                        + " FROM gone; RETURN NULL; END $$");
        TestDatabase.execute("CREATE TRIGGER count_deletes AFTER DELETE ON batching.items REFERENCING OLD TABLE AS gone"
                + " FOR EACH STATEMENT EXECUTE FUNCTION batching.count_deletes()");
        TestDatabase.execute("INSERT INTO batching.items SELECT i, ? FROM generate_series(1, 1001) AS i", BEFORE);
        DatasetSpec spec = TestDatabase.spec("batching", "items", "id", ConditionalColumn.timestamp("updated_at"));
        List<Map<String, Object>> keys = LongStream.rangeClosed(1, 1000)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();

        try (StoreAdapter adapter = TestDatabase.open(Map.of("batch-size", "200"))) {
            adapter.checkDataset(spec);
            DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, keys));
            DeleteOutcome outcome = adapter.executeDelete(plan);

            assertThat(plan.statements()).hasSize(5);
            assertThat(outcome.statements()).isEqualTo(5);
            assertThat(outcome.deleted()).isEqualTo(1000);
        }
        assertThat(TestDatabase.count("SELECT count(DISTINCT txid) FROM batching.deletes_seen"))
                .isEqualTo(5);
        assertThat(TestDatabase.column(Long.class, "SELECT rows FROM batching.deletes_seen"))
                .containsOnly(200L);
        assertThat(TestDatabase.column(Long.class, "SELECT id FROM batching.items"))
                .containsExactly(1001L);
    }
}
