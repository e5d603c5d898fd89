package io.erasure.store.postgres;

import static io.erasure.store.postgres.Times.BEFORE;
import static io.erasure.store.postgres.Times.CUTOFF;
import static io.erasure.store.postgres.Times.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.infra.process.FreePorts;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.PlannedStatement;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What reaches the database, and which failures are worth a retry. */
class FailuresIT {

    private static StoreAdapter adapter;

    @BeforeAll
    static void open() {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS failures");
        adapter = TestDatabase.open(Map.of("lock-timeout-ms", "200"));
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Test
    void anInjectionAttemptInASpecNeverReachesTheDatabase() {
        TestDatabase.execute(
                "CREATE TABLE IF NOT EXISTS failures.victims (id bigint PRIMARY KEY, updated_at timestamptz)");

        DatasetSpec victims = TestDatabase.spec("failures", "victims", "id", ConditionalColumn.timestamp("updated_at"));

        assertThatThrownBy(() -> victims.toBuilder()
                        .table("victims\"; DROP TABLE failures.victims; --")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("table must be a lower-case identifier");
        assertThatThrownBy(() -> victims.toBuilder()
                        .conditionalColumn(ConditionalColumn.timestamp("updated_at) OR (1=1"))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("conditionalColumn.name must be a lower-case identifier");
        assertThat(TestDatabase.count(
                        "SELECT count(*) FROM pg_tables WHERE schemaname = 'failures' AND tablename = 'victims'"))
                .isEqualTo(1);
    }

    @Test
    void keyValuesAreBoundNeverSpliced() {
        DatasetSpec spec = table("text_keys", "(id text PRIMARY KEY, updated_at timestamptz NOT NULL)");
        TestDatabase.execute(
                "INSERT INTO failures.text_keys VALUES ('a', ?), ('x''); DELETE FROM failures.text_keys; --', ?)",
                BEFORE,
                BEFORE);
        DatasetSpec checked = spec;

        var outcome = adapter.executeDelete(adapter.planDelete(new DeleteBatch(
                checked, "b-1", CUTOFF, List.of(Map.of("id", "x'); DELETE FROM failures.text_keys; --")))));

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(TestDatabase.column(String.class, "SELECT id FROM failures.text_keys"))
                .containsExactly("a");
    }

    @Test
    void aMissingTableIsFatal() {
        DatasetSpec spec = table("dropped", "(id bigint PRIMARY KEY, updated_at timestamptz NOT NULL)");
        TestDatabase.execute("DROP TABLE failures.dropped");

        // the catalog changed since the check: the dataset is checked again, which names the fix
        assertThatThrownBy(() -> adapter.readRows(spec, ids(1)))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("failures.dropped does not exist in this database");
        assertThatThrownBy(() -> adapter.checkDataset(spec))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("failures.dropped does not exist");
    }

    @Test
    void aDeleteWaitingOnALiveTransactionsLockIsRetriable() throws Exception {
        DatasetSpec spec = table("locked", "(id bigint PRIMARY KEY, updated_at timestamptz NOT NULL)");
        TestDatabase.execute("INSERT INTO failures.locked VALUES (1, ?)", BEFORE);
        DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, ids(1)));

        try (Connection live = TestDatabase.jdbc()) {
            live.setAutoCommit(false);
            live.createStatement().execute("SELECT * FROM failures.locked WHERE id = 1 FOR UPDATE");

            assertThatThrownBy(() -> adapter.executeDelete(plan))
                    .isInstanceOf(StoreException.Retriable.class)
                    .hasMessageContaining("55P03");
            live.rollback();
        }
        assertThat(adapter.executeDelete(plan).deleted())
                .as("the same plan, retried")
                .isEqualTo(1);
    }

    @Test
    void anUnreachableDatabaseIsRetriableAndAMissingOneIsFatal() {
        StoreConnection unreachable = new StoreConnection(
                "pg-nowhere",
                StoreKind.POSTGRES,
                Map.of("url", "jdbc:postgresql://127.0.0.1:" + FreePorts.next() + "/postgres", "username", "postgres"));
        assertThatThrownBy(() -> StoreAdapters.load().open(unreachable))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("pg-nowhere");

        StoreConnection noDatabase =
                TestDatabase.connection(Map.of("url", TestDatabase.engine().jdbcUrl() + "_missing"));
        assertThatThrownBy(() -> StoreAdapters.load().open(noDatabase))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("postgres_missing")
                .hasMessageContaining("check the connection's username, password and database");

        StoreConnection noUrl = new StoreConnection("pg-empty", StoreKind.POSTGRES, Map.of());
        assertThatThrownBy(() -> StoreAdapters.load().open(noUrl))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("erasure.connections.pg-empty.settings.url");
    }

    @Test
    void aPlanFromElsewhereIsRefused() {
        DatasetSpec spec = table("foreign_plan", "(id bigint PRIMARY KEY, updated_at timestamptz NOT NULL)");
        TestDatabase.execute("INSERT INTO failures.foreign_plan VALUES (1, ?)", BEFORE);
        DeletePlan plan = adapter.planDelete(new DeleteBatch(spec, "b-1", CUTOFF, ids(1)));
        DeletePlan forged = new DeletePlan(
                plan.batch(),
                List.of(new PlannedStatement("DELETE FROM failures.foreign_plan", List.of())),
                plan.decisions());

        assertThatThrownBy(() -> adapter.executeDelete(forged))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("did not make");
        assertThat(TestDatabase.count("SELECT count(*) FROM failures.foreign_plan"))
                .isEqualTo(1);
    }

    private static DatasetSpec table(String name, String columns) {
        TestDatabase.execute("DROP TABLE IF EXISTS failures." + name);
        TestDatabase.execute("CREATE TABLE failures." + name + " " + columns);
        DatasetSpec spec = TestDatabase.spec("failures", name, "id", ConditionalColumn.timestamp("updated_at"));
        adapter.checkDataset(spec);
        return spec;
    }
}
