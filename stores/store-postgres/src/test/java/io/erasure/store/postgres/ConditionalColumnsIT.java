package io.erasure.store.postgres;

import static io.erasure.store.postgres.Times.AFTER;
import static io.erasure.store.postgres.Times.BEFORE;
import static io.erasure.store.postgres.Times.CUTOFF;
import static io.erasure.store.postgres.Times.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** VERSION columns, an explicit none, a timestamp without time zone, and conditional columns of the wrong type. */
class ConditionalColumnsIT {

    private static StoreAdapter adapter;

    @BeforeAll
    static void open() {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS cond");
        adapter = TestDatabase.open(Map.of());
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Test
    void aRowWhoseVersionChangedBetweenPlanAndExecuteSurvives() {
        DatasetSpec spec = table(
                "versioned",
                "(id bigint PRIMARY KEY, payload text, version int NOT NULL)",
                ConditionalColumn.version("version"));
        TestDatabase.execute("INSERT INTO cond.versioned SELECT i, 'v1', 1 FROM generate_series(1, 3) AS i");

        DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, ids(1, 2, 4)));
        TestDatabase.execute("UPDATE cond.versioned SET payload = 'v2', version = version + 1 WHERE id = 2");
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(plan.statements().get(0).describe()).contains("\"version\":1");
        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(outcome.absent()).isEqualTo(1);
        assertThat(TestDatabase.column(String.class, "SELECT payload FROM cond.versioned ORDER BY id"))
                .containsExactly("v2", "v1");
        assertThat(adapter.checkLiveState(spec, ids(3)).get(0).lastWriteMicros())
                .as("a version is not a write time")
                .isNull();
    }

    @Test
    void anExplicitNoneDeletesUnconditionally() {
        DatasetSpec spec = table(
                "unguarded", "(id bigint PRIMARY KEY, payload text, updated_at timestamptz)", ConditionalColumn.none());
        TestDatabase.execute(
                "INSERT INTO cond.unguarded VALUES (1, 'old', ?), (2, 'written after the cut-off', ?)", BEFORE, AFTER);

        DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, ids(1, 2)));
        DeleteOutcome outcome = adapter.executeDelete(plan);

        assertThat(plan.statements()).singleElement().satisfies(s -> {
            // the keys, their planned row versions and the schema version planned at; no cut-off
            assertThat(s.values()).hasSize(3);
            assertThat(s.text()).doesNotContain("cutoff");
        });
        assertThat(outcome.deleted()).isEqualTo(2);
        assertThat(TestDatabase.count("SELECT count(*) FROM cond.unguarded")).isZero();
    }

    @Test
    void aTimestampWithoutTimeZoneIsReadAsUtc() {
        DatasetSpec spec = table(
                "local_times",
                "(id bigint PRIMARY KEY, updated_at timestamp NOT NULL)",
                ConditionalColumn.timestamp("updated_at"));
        TestDatabase.execute(
                "INSERT INTO cond.local_times VALUES (1, ?), (2, ?)",
                BEFORE.toLocalDateTime(),
                AFTER.toLocalDateTime());

        DeleteOutcome outcome =
                adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, ids(1, 2))));

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(TestDatabase.column(Long.class, "SELECT id FROM cond.local_times"))
                .containsExactly(2L);
    }

    @Test
    void aRowWithoutAnUpdatedAtIsKept() {
        DatasetSpec spec = table(
                "nullable",
                "(id bigint PRIMARY KEY, updated_at timestamptz)",
                ConditionalColumn.timestamp("updated_at"));
        TestDatabase.execute("INSERT INTO cond.nullable VALUES (1, NULL)");

        DeleteOutcome outcome = adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, ids(1))));

        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(TestDatabase.count("SELECT count(*) FROM cond.nullable")).isEqualTo(1);
    }

    @Test
    void conditionalColumnsOfTheWrongTypeAreRefused() {
        DatasetSpec textStamp = table("text_stamp", "(id bigint PRIMARY KEY, updated_at text)", null);
        assertThatThrownBy(() -> adapter.checkDataset(textStamp.toBuilder()
                        .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                        .build()))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("cond.text_stamp")
                .hasMessageContaining(
                        "'updated_at' is of type text; a TIMESTAMP conditional column must be timestamptz or"
                                + " timestamp");
        assertThatThrownBy(() -> adapter.checkDataset(textStamp.toBuilder()
                        .conditionalColumn(ConditionalColumn.version("updated_at"))
                        .build()))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("must be smallint, integer or bigint");
        assertThatThrownBy(() -> adapter.checkDataset(textStamp.toBuilder()
                        .conditionalColumn(ConditionalColumn.timestamp("changed"))
                        .build()))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("has no column 'changed' (conditionalColumn)");
        assertThatThrownBy(() -> adapter.checkDataset(textStamp.toBuilder()
                        .keyColumns(KeyColumns.partitionOnly("updated_at"))
                        .build()))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("are not the table's primary key [id]");
    }

    private static DatasetSpec table(String name, String columns, ConditionalColumn conditional) {
        TestDatabase.execute("DROP TABLE IF EXISTS cond." + name);
        TestDatabase.execute("CREATE TABLE cond." + name + " " + columns);
        DatasetSpec spec =
                TestDatabase.spec("cond", name, "id", conditional == null ? ConditionalColumn.none() : conditional);
        if (conditional != null) {
            adapter.checkDataset(spec);
        }
        return spec;
    }
}
