package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.StoreException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Datasets the adapter refuses, each with a reason and a fix, before anything reaches the table. */
class CassandraDatasetCheckIT {

    private static final String KEYSPACE = "checks";

    private static CqlSession direct;
    private static CassandraStoreAdapter adapter;

    @BeforeAll
    static void open() {
        direct = CassandraFixtures.directSession();
        CassandraFixtures.createKeyspace(direct, KEYSPACE, 1);
        direct.execute("CREATE TABLE IF NOT EXISTS checks.page_views (page text PRIMARY KEY, views counter)");
        direct.execute("CREATE TABLE IF NOT EXISTS checks.profiles (id bigint, version int, name text,"
                + " PRIMARY KEY ((id), version))");
        direct.execute(
                "CREATE TABLE IF NOT EXISTS checks.with_static (id bigint, seq int, owner text static, note text,"
                        + " PRIMARY KEY ((id), seq))");
        adapter = CassandraFixtures.openAdapter(Map.of());
    }

    @AfterAll
    static void close() {
        adapter.close();
        direct.close();
    }

    @Test
    void aCounterTableIsRefusedWithTheReason() {
        DatasetSpec counters = CassandraFixtures.spec(KEYSPACE, "page_views", KeyColumns.partitionOnly("page"), "page");

        assertThatThrownBy(() -> adapter.checkDataset(counters))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("counter table checks.page_views")
                .hasMessageContaining("cannot be deleted at a cut-off timestamp");
    }

    @Test
    void keyColumnsThatAreNotTheTablesPrimaryKeyAreRefused() {
        DatasetSpec wrongKey = CassandraFixtures.spec(KEYSPACE, "profiles", KeyColumns.partitionOnly("id"), "id");

        assertThatThrownBy(() -> adapter.checkDataset(wrongKey))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("clustering columns [version]")
                .hasMessageContaining("register the table's primary key");
    }

    @Test
    void aMissingIdentifierColumnIsRefused() {
        DatasetSpec noSuchColumn = CassandraFixtures.spec(
                KEYSPACE, "profiles", KeyColumns.of(List.of("id"), List.of("version")), "customer_id");

        assertThatThrownBy(() -> adapter.checkDataset(noSuchColumn))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("identifierColumn 'customer_id'");
    }

    @Test
    void aConditionalColumnIsRefusedBecauseCassandraDeletesAtTheCutoffTimestamp() {
        DatasetSpec conditional =
                CassandraFixtures.spec(KEYSPACE, "profiles", KeyColumns.of(List.of("id"), List.of("version")), "id")
                        .toBuilder()
                        .conditionalColumn(ConditionalColumn.version("version"))
                        .build();

        assertThatThrownBy(() -> adapter.checkDataset(conditional))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("set conditionalColumn to none");
    }

    @Test
    void aTableWithAStaticColumnIsRefused() {
        DatasetSpec withStatic =
                CassandraFixtures.spec(KEYSPACE, "with_static", KeyColumns.of(List.of("id"), List.of("seq")), "id");

        assertThatThrownBy(() -> adapter.checkDataset(withStatic))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("static column 'owner'");
    }

    @Test
    void aMissingKeyspaceIsNamed() {
        DatasetSpec missing =
                CassandraFixtures.spec("no_such_keyspace", "profiles", KeyColumns.partitionOnly("id"), "id");

        assertThatThrownBy(() -> adapter.checkDataset(missing))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("keyspace no_such_keyspace")
                .hasMessageContaining("create the table, or fix namespace/table");
    }

    @Test
    void anInjectionAttemptInTheSpecNeverReachesTheStore() {
        assertThatThrownBy(() -> CassandraFixtures.spec(KEYSPACE, "x\"; DROP", KeyColumns.partitionOnly("id"), "id"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table must be a lower-case identifier")
                .hasMessageContaining("x\"; DROP");
        assertThatThrownBy(() ->
                        CassandraFixtures.spec(KEYSPACE, "profiles", KeyColumns.partitionOnly("id\" = 1 OR \"x"), "id"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keyColumns.partition[0] must be a lower-case identifier");
    }

    @Test
    void anInjectionAttemptInAKeyValueIsBoundAsAValue() {
        direct.execute("CREATE TABLE IF NOT EXISTS checks.accounts (handle text PRIMARY KEY, email text)");
        direct.execute("INSERT INTO checks.accounts (handle, email) VALUES ('alice', 'a@example.com')");
        DatasetSpec accounts =
                CassandraFixtures.spec(KEYSPACE, "accounts", KeyColumns.partitionOnly("handle"), "handle");
        adapter.checkDataset(accounts);

        List<LiveState> states = adapter.checkLiveState(
                accounts,
                List.of(
                        Map.of("handle", "x'); DROP TABLE checks.accounts; --"),
                        Map.of("handle", "alice\" OR \"1\"=\"1")));

        assertThat(states).extracting(LiveState::present).containsExactly(false, false);
        assertThat(adapter.checkLiveState(accounts, List.of(Map.of("handle", "alice"))))
                .singleElement()
                .extracting(LiveState::present)
                .isEqualTo(true);
    }

    @Test
    void aKeyValueOfTheWrongTypeIsAnErrorNamingTheColumnTypeNotARetry() {
        DatasetSpec profiles =
                CassandraFixtures.spec(KEYSPACE, "profiles", KeyColumns.of(List.of("id"), List.of("version")), "id");
        adapter.checkDataset(profiles);

        assertThatThrownBy(() -> adapter.checkLiveState(profiles, List.of(Map.of("id", "not-a-number", "version", 1))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("does not fit its column type");
    }
}
