package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.key.CanonicalKey;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Forward lookups: the keys of an identifier's rows found by a partition read or an index (SAI or a legacy
 * secondary index), and refused where finding them would scan the table.
 */
class CassandraIdentifierLookupIT {

    private static final String KEYSPACE = "lookups";
    private static final AtomicInteger TABLES = new AtomicInteger();

    private static CqlSession direct;
    private static CassandraStoreAdapter adapter;

    @BeforeAll
    static void open() {
        direct = CassandraFixtures.directSession();
        CassandraFixtures.createKeyspace(direct, KEYSPACE, 1);
        adapter = CassandraFixtures.openAdapter(Map.of());
    }

    @AfterAll
    static void close() {
        adapter.close();
        direct.close();
    }

    @Test
    void byThePartitionKeyEveryRowOfTheIdentifiersPartitionIsFoundAndNothingElse() {
        DatasetSpec spec = events("customer_id");
        writeEvent(spec, 1, "2024-01-01T00:00:00Z", 7);
        writeEvent(spec, 1, "2024-01-02T00:00:00Z", 7);
        writeEvent(spec, 1, "2024-01-03T00:00:00Z", 8);
        writeEvent(spec, 2, "2024-01-01T00:00:00Z", 7);

        assertThat(adapter.lookupRefusal(spec)).isEmpty();
        List<Map<String, Object>> keys = adapter.keysByIdentifier(spec, List.of(1L, 3L), 100);

        assertThat(keys)
                .extracting(CanonicalKey::render)
                .containsExactly(
                        "{\"at\":\"2024-01-01T00:00:00Z\",\"customer_id\":1}",
                        "{\"at\":\"2024-01-02T00:00:00Z\",\"customer_id\":1}",
                        "{\"at\":\"2024-01-03T00:00:00Z\",\"customer_id\":1}");
        // the keys are full keys in the platform's form: the ordinary read path finds every row
        assertThat(adapter.readRows(spec, keys)).extracting(LiveRow::key).hasSize(3);
    }

    @Test
    void bySaiIndexedColumnOnlyTheRowsHoldingTheIdentifierAreFound() {
        DatasetSpec spec = events("member_id");
        index(spec, "member_id", " USING 'sai'");
        writeEvent(spec, 1, "2024-01-01T00:00:00Z", 7);
        writeEvent(spec, 1, "2024-01-02T00:00:00Z", 8);
        writeEvent(spec, 2, "2024-01-01T00:00:00Z", 7);
        writeEvent(spec, 3, "2024-01-05T00:00:00Z", 9);

        assertThat(adapter.lookupRefusal(spec)).isEmpty();
        List<Map<String, Object>> keys = adapter.keysByIdentifier(spec, List.of(7, 9), 100);

        assertThat(keys)
                .extracting(CanonicalKey::render)
                .containsExactly(
                        "{\"at\":\"2024-01-01T00:00:00Z\",\"customer_id\":1}",
                        "{\"at\":\"2024-01-01T00:00:00Z\",\"customer_id\":2}",
                        "{\"at\":\"2024-01-05T00:00:00Z\",\"customer_id\":3}");
    }

    @Test
    void byALegacySecondaryIndexTheRowsAreFoundToo() {
        DatasetSpec spec = events("member_id");
        index(spec, "member_id", "");
        writeEvent(spec, 4, "2024-01-01T00:00:00Z", 11);
        writeEvent(spec, 5, "2024-01-01T00:00:00Z", 12);

        assertThat(adapter.lookupRefusal(spec)).isEmpty();
        assertThat(adapter.keysByIdentifier(spec, List.of(11), 100))
                .extracting(CanonicalKey::render)
                .containsExactly("{\"at\":\"2024-01-01T00:00:00Z\",\"customer_id\":4}");
    }

    @Test
    void anUnindexedColumnIsRefusedWithTheIndexToCreateAndThatIndexLiftsTheRefusal() {
        DatasetSpec spec = events("member_id");
        writeEvent(spec, 1, "2024-01-01T00:00:00Z", 7);

        String refusal = adapter.lookupRefusal(spec).orElseThrow();

        assertThat(refusal)
                .contains("member_id")
                .contains(KEYSPACE + "." + spec.table())
                .contains("CREATE INDEX ON \"" + KEYSPACE + "\".\"" + spec.table() + "\" (member_id) USING 'sai'");
        assertThatThrownBy(() -> adapter.keysByIdentifier(spec, List.of(7), 100))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("member_id");

        direct.execute(refusal.substring(refusal.indexOf("CREATE INDEX")));
        awaitQueryable(spec, "member_id", 7);
        assertThat(adapter.lookupRefusal(spec)).isEmpty();
        assertThat(adapter.keysByIdentifier(spec, List.of(7), 100)).hasSize(1);
    }

    @Test
    void aClusteringColumnWithoutIndexIsRefused() {
        DatasetSpec spec = events("at");

        assertThat(adapter.lookupRefusal(spec).orElseThrow())
                .contains("clustering column")
                .contains("CREATE INDEX");
    }

    @Test
    void anIndexOnTheValuesOfACollectionDoesNotCountForEquality() {
        String table = "tagged_" + TABLES.incrementAndGet();
        direct.execute("CREATE TABLE " + KEYSPACE + "." + table + " (id bigint PRIMARY KEY, tags set<text>)");
        direct.execute("CREATE INDEX ON " + KEYSPACE + "." + table + " (values(tags)) USING 'sai'");
        DatasetSpec spec = CassandraFixtures.spec(KEYSPACE, table, KeyColumns.partitionOnly("id"), "tags");

        assertThat(adapter.lookupRefusal(spec).orElseThrow()).contains("tags");
    }

    @Test
    void atMostLimitKeysAreReturnedAndAllOfThemWithinALargerLimit() {
        DatasetSpec spec = events("customer_id");
        for (int day = 1; day <= 5; day++) {
            writeEvent(spec, 6, "2024-02-0" + day + "T00:00:00Z", 1);
        }
        writeEvent(spec, 7, "2024-02-01T00:00:00Z", 1);

        List<Map<String, Object>> three = adapter.keysByIdentifier(spec, List.of(6L, 7L), 3);
        List<Map<String, Object>> all = adapter.keysByIdentifier(spec, List.of(6L, 7L), 6);
        List<Map<String, Object>> more = adapter.keysByIdentifier(spec, List.of(6L, 7L), 100);

        assertThat(three).hasSize(3).doesNotHaveDuplicates();
        assertThat(all).containsExactlyElementsOf(more).hasSize(6);
        assertThat(all).containsAll(three);
    }

    @Test
    void anIdentifierWithMoreRowsThanAPageIsFollowedThroughEveryPage() {
        DatasetSpec spec = events("customer_id");
        PreparedStatement insert =
                direct.prepare("INSERT INTO " + spec.quotedTable() + " (customer_id, at, member_id) VALUES (?, ?, ?)");
        Instant start = Instant.parse("2024-03-01T00:00:00Z");
        for (int from = 0; from < 1_200; from += 100) {
            BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.UNLOGGED);
            for (int i = from; i < from + 100; i++) {
                batch.addStatement(insert.bind(8L, start.plus(Duration.ofMinutes(i)), 1));
            }
            direct.execute(batch.build());
        }

        assertThat(adapter.keysByIdentifier(spec, List.of(8L), 5_000))
                .hasSize(1_200)
                .doesNotHaveDuplicates();
        assertThat(adapter.keysByIdentifier(spec, List.of(8L), 700)).hasSize(700);
    }

    @Test
    void identifiersTakeTheColumnsTypeAsKeysDo() {
        DatasetSpec spec = events("customer_id");
        writeEvent(spec, 9, "2024-01-01T00:00:00Z", 1);

        // a JSON number of another Java type, and a string holding the number, both mean bigint 9
        assertThat(adapter.keysByIdentifier(spec, List.of(9), 10)).hasSize(1);
        assertThat(adapter.keysByIdentifier(spec, List.of(new BigDecimal("9")), 10))
                .hasSize(1);
        assertThatThrownBy(() -> adapter.keysByIdentifier(spec, List.of(List.of(9)), 10))
                .isInstanceOfAny(IllegalArgumentException.class, StoreException.Fatal.class);
    }

    /** A fresh {@code (customer_id bigint, at timestamp, member_id int, PRIMARY KEY ((customer_id), at))} table. */
    private static DatasetSpec events(String identifier) {
        String table = "events_" + TABLES.incrementAndGet();
        direct.execute("CREATE TABLE " + KEYSPACE + "." + table
                + " (customer_id bigint, at timestamp, member_id int, PRIMARY KEY ((customer_id), at))");
        DatasetSpec spec = CassandraFixtures.spec(
                KEYSPACE, table, KeyColumns.of(List.of("customer_id"), List.of("at")), identifier);
        adapter.checkDataset(spec);
        return spec;
    }

    private static void index(DatasetSpec spec, String column, String using) {
        direct.execute("CREATE INDEX ON " + spec.quotedTable() + " (" + column + ")" + using);
        awaitQueryable(spec, column, 0);
    }

    /** An index is built in the background, even on an empty table: wait until it answers. */
    private static void awaitQueryable(DatasetSpec spec, String column, int value) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                direct.execute("SELECT customer_id FROM " + spec.quotedTable() + " WHERE " + column + " = " + value);
                return;
            } catch (RuntimeException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
            }
        }
    }

    private static void writeEvent(DatasetSpec spec, long customer, String at, int member) {
        direct.execute(
                direct.prepare("INSERT INTO " + spec.quotedTable() + " (customer_id, at, member_id) VALUES (?, ?, ?)")
                        .bind(customer, Instant.parse(at), member));
    }
}
