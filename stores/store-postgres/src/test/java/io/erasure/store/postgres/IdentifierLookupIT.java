package io.erasure.store.postgres;

import static io.erasure.store.postgres.Times.BEFORE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.store.postgres.schema.DatasetCheck;
import io.erasure.store.postgres.sql.LookupSql;
import io.erasure.store.postgres.tree.Hierarchy;
import io.erasure.store.spi.IdentifierLookup;
import io.erasure.store.spi.StoreAdapter;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lookups by a non-key identifier column: only through an index that starts with it, typed as the column, in key order.
 */
class IdentifierLookupIT {

    private static StoreAdapter adapter;
    private static IdentifierLookup lookup;

    @BeforeAll
    static void open() {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS lookup");
        adapter = TestDatabase.open(Map.of());
        lookup = (IdentifierLookup) adapter;
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Test
    void numericIdentifiersFindEveryKeyThroughAnIndexInKeyOrderAndAtMostTheLimit() {
        DatasetSpec spec = table(
                "orders",
                "(tenant text, id bigint, member bigint, updated_at timestamptz NOT NULL,"
                        + " PRIMARY KEY (tenant, id))",
                KeyColumns.partitionOnly("tenant", "id"),
                "member");
        TestDatabase.execute("CREATE INDEX orders_member_time ON lookup.orders (member, updated_at)");
        TestDatabase.execute(
                "INSERT INTO lookup.orders VALUES ('b', 1, 7, ?), ('a', 9, 7, ?), ('a', 2, 8, ?), ('a', 3, 7, ?),"
                        + " ('c', 1, 70, ?), ('a', 4, NULL, ?)",
                BEFORE,
                BEFORE,
                BEFORE,
                BEFORE,
                BEFORE,
                BEFORE);

        assertThat(lookup.lookupRefusal(spec))
                .as("an index that starts with member serves")
                .isEmpty();
        List<Map<String, Object>> sevens = List.of(
                Map.of("tenant", "a", "id", 3L), Map.of("tenant", "a", "id", 9L), Map.of("tenant", "b", "id", 1L));
        assertThat(lookup.keysByIdentifier(spec, List.of(7L), 10)).containsExactlyElementsOf(sevens);
        assertThat(lookup.keysByIdentifier(spec, List.of("7"), 10))
                .as("a number sent as a JSON string")
                .isEqualTo(sevens);
        assertThat(lookup.keysByIdentifier(spec, List.of(7L, 8L), 10))
                .containsExactly(Map.of("tenant", "a", "id", 2L), sevens.get(0), sevens.get(1), sevens.get(2));
        List<Map<String, Object>> two = lookup.keysByIdentifier(spec, List.of(7L), 2);
        assertThat(two)
                .as("at most limit keys, of the identifier's, in key order")
                .hasSize(2)
                .isSubsetOf(sevens)
                .isEqualTo(sevens.stream().filter(two::contains).toList());
        assertThat(lookup.keysByIdentifier(spec, List.of(6L, 700L), 10)).isEmpty();
    }

    @Test
    void textIdentifiersMatchExactly() {
        DatasetSpec spec = table(
                "accounts",
                "(id bigint PRIMARY KEY, email text, updated_at timestamptz NOT NULL)",
                KeyColumns.partitionOnly("id"),
                "email");
        TestDatabase.execute("CREATE INDEX ON lookup.accounts (email)");
        TestDatabase.execute(
                "INSERT INTO lookup.accounts VALUES (5, 'ann@example.com', ?), (2, 'ann@example.com', ?),"
                        + " (3, 'Ann@example.com', ?), (4, 'bob@example.com', ?)",
                BEFORE,
                BEFORE,
                BEFORE,
                BEFORE);

        assertThat(lookup.lookupRefusal(spec)).isEmpty();
        assertThat(lookup.keysByIdentifier(spec, List.of("ann@example.com"), 10))
                .containsExactly(Map.of("id", 2L), Map.of("id", 5L));
        assertThat(lookup.keysByIdentifier(spec, List.of("ann@example.com", "bob@example.com", "nobody"), 10))
                .containsExactly(Map.of("id", 2L), Map.of("id", 4L), Map.of("id", 5L));
    }

    @Test
    void aColumnNoIndexStartsWithIsRefusedWithTheFixUntilTheIndexExists() {
        DatasetSpec spec = table(
                "unindexed",
                "(id bigint PRIMARY KEY, member bigint, updated_at timestamptz NOT NULL)",
                KeyColumns.partitionOnly("id"),
                "member");
        TestDatabase.execute("CREATE INDEX unindexed_time_member ON lookup.unindexed (updated_at, member)");
        TestDatabase.execute("INSERT INTO lookup.unindexed VALUES (1, 7, ?)", BEFORE);

        assertThat(lookup.lookupRefusal(spec).orElseThrow())
                .as("member is only the second column of an index")
                .contains("lookup.unindexed")
                .contains("member")
                .endsWith("CREATE INDEX CONCURRENTLY ON lookup.unindexed (member)");
        assertThatThrownBy(() -> lookup.keysByIdentifier(spec, List.of(7L), 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CREATE INDEX CONCURRENTLY ON lookup.unindexed (member)");

        TestDatabase.execute("CREATE INDEX CONCURRENTLY ON lookup.unindexed (member)");

        assertThat(lookup.lookupRefusal(spec)).as("a refusal is not cached").isEmpty();
        assertThat(lookup.keysByIdentifier(spec, List.of(7L), 10)).containsExactly(Map.of("id", 1L));
    }

    @Test
    void aPrimaryKeyThatStartsWithTheColumnServes() {
        DatasetSpec spec = table(
                "by_member",
                "(member bigint, id bigint, updated_at timestamptz NOT NULL," + " PRIMARY KEY (member, id))",
                KeyColumns.partitionOnly("member", "id"),
                "member");
        TestDatabase.execute(
                "INSERT INTO lookup.by_member VALUES (7, 2, ?), (7, 1, ?), (8, 1, ?)", BEFORE, BEFORE, BEFORE);

        assertThat(lookup.lookupRefusal(spec)).isEmpty();
        assertThat(lookup.keysByIdentifier(spec, List.of(7L), 10))
                .containsExactly(Map.of("member", 7L, "id", 1L), Map.of("member", 7L, "id", 2L));
    }

    @Test
    void partialAndInvalidIndexesAreRefusedByName() {
        DatasetSpec spec = table(
                "half_indexed",
                "(id bigint PRIMARY KEY, member bigint, updated_at timestamptz NOT NULL)",
                KeyColumns.partitionOnly("id"),
                "member");
        TestDatabase.execute("INSERT INTO lookup.half_indexed VALUES (1, 7, ?), (2, 7, ?)", BEFORE, BEFORE);
        TestDatabase.execute("CREATE INDEX half_partial ON lookup.half_indexed (member) WHERE member > 100");
        assertThatThrownBy(() -> TestDatabase.execute(
                        "CREATE UNIQUE INDEX CONCURRENTLY half_failed ON lookup.half_indexed (member)"))
                .as("a failed CREATE INDEX CONCURRENTLY leaves an invalid index")
                .hasMessageContaining("duplicate");

        assertThat(lookup.lookupRefusal(spec).orElseThrow())
                .contains("half_failed: not valid or not ready")
                .contains("half_partial: partial")
                .contains("CREATE INDEX CONCURRENTLY ON lookup.half_indexed (member)");
    }

    @Test
    void theLookupReadsThroughTheIndexNotTheTable() throws Exception {
        DatasetSpec spec = table(
                "big",
                "(id bigint PRIMARY KEY, member bigint, updated_at timestamptz NOT NULL)",
                KeyColumns.partitionOnly("id"),
                "member");
        TestDatabase.execute(
                "INSERT INTO lookup.big SELECT i, i % 10000, ? FROM generate_series(1, 50000) AS i", BEFORE);
        TestDatabase.execute("CREATE INDEX big_member ON lookup.big (member)");
        TestDatabase.execute("ANALYZE lookup.big");
        String statement;
        try (Connection connection = TestDatabase.jdbc()) {
            statement = LookupSql.keysByIdentifier(DatasetCheck.resolve(connection, spec, Hierarchy.NONE));
        }

        String plan = String.join(
                "\n", TestDatabase.column(String.class, "EXPLAIN " + statement, "[{\"member\": 42}]", 1000));

        assertThat(plan).contains("big_member").doesNotContain("Seq Scan");
        assertThat(lookup.keysByIdentifier(spec, List.of(42L), 1000))
                .extracting(key -> key.get("id"))
                .containsExactly(42L, 10042L, 20042L, 30042L, 40042L);
    }

    private static DatasetSpec table(String name, String columns, KeyColumns key, String identifier) {
        TestDatabase.execute("DROP TABLE IF EXISTS lookup." + name);
        TestDatabase.execute("CREATE TABLE lookup." + name + " " + columns);
        DatasetSpec spec =
                TestDatabase.spec("lookup", name, "id", ConditionalColumn.timestamp("updated_at")).toBuilder()
                        .keyColumns(key)
                        .identifierColumn(identifier)
                        .build();
        adapter.checkDataset(spec);
        return spec;
    }
}
