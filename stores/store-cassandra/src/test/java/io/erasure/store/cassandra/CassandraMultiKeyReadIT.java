package io.erasure.store.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.DriverExecutionProfile;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.session.Request;
import com.datastax.oss.driver.api.core.tracker.RequestTracker;
import io.erasure.infra.CassandraEngine;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.record.ColumnValue;
import io.erasure.store.cassandra.guard.NodeDowntimes;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.StoreException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code readRows} and {@code checkLiveState} read key sets in multi-key statements and answer exactly what one
 * point read per key answers (each key alone in its own call: a lone key's row cannot be mistaken for another's):
 * many partitions, one partition with many clustering rows, present and absent keys mixed and shuffled, cells
 * written after the cut-off, TTL'd cells, key counts over the per-statement bound, and keys spelled in other forms
 * of their value; a table with a static column is refused before anything is read, as before. The statements are
 * counted by a driver request tracker, and are what {@code readStatements} charges.
 */
class CassandraMultiKeyReadIT {

    private static final String KEYSPACE = "multikey";
    private static final long OLD = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(OLD + 1_000_000);
    private static final long NEWER = CUTOFF.micros() + 1_000_000;
    private static final Instant AT = Instant.parse("2024-02-29T12:34:56.789Z");
    private static final String UUID = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

    private static CqlSession direct;
    private static CqlSession tracked;
    private static final SelectCounter SELECTS = new SelectCounter();
    private static CassandraStoreAdapter adapter;
    private static DatasetSpec profiles;
    private static DatasetSpec events;
    private static DatasetSpec typed;

    @BeforeAll
    static void open() {
        direct = CassandraFixtures.directSession();
        CassandraFixtures.createKeyspace(direct, KEYSPACE, 1);
        direct.execute("DROP TABLE IF EXISTS multikey.profiles");
        direct.execute("DROP TABLE IF EXISTS multikey.events");
        direct.execute("DROP TABLE IF EXISTS multikey.typed");
        direct.execute("DROP TABLE IF EXISTS multikey.with_static");
        direct.execute("CREATE TABLE multikey.profiles (id bigint PRIMARY KEY, name text, score int, tags list<text>,"
                + " attrs map<text, text>)");
        direct.execute("CREATE TABLE multikey.events (user text, seq int, at timestamp, body text, note text,"
                + " PRIMARY KEY ((user), seq, at))");
        direct.execute("CREATE TABLE multikey.with_static (user text, seq int, body text, plan text static,"
                + " PRIMARY KEY ((user), seq))");
        direct.execute("CREATE TABLE multikey.typed (u uuid, b blob, at timestamp, d decimal, v text,"
                + " PRIMARY KEY ((u, b), at, d))");
        tracked = trackedSession();
        adapter = openAdapter(Map.of());
        profiles = CassandraFixtures.spec(KEYSPACE, "profiles", KeyColumns.partitionOnly("id"), "id");
        events = CassandraFixtures.spec(
                KEYSPACE, "events", KeyColumns.of(List.of("user"), List.of("seq", "at")), "user");
        typed = CassandraFixtures.spec(KEYSPACE, "typed", KeyColumns.of(List.of("u", "b"), List.of("at", "d")), "u");
        for (DatasetSpec spec : List.of(profiles, events, typed)) {
            adapter.checkDataset(spec);
        }
        writeProfiles();
        writeEvents();
        direct.execute("INSERT INTO multikey.typed (u, b, at, d, v) VALUES (" + UUID
                + ", 0xcafe, '2024-02-29 12:34:56.789Z'," + " 1.50, 'typed') USING TIMESTAMP " + OLD);
    }

    @AfterAll
    static void close() {
        adapter.close();
        direct.close();
    }

    @Test
    void keysOfManyPartitionsAreReadInKeySetsAndGiveWhatPointReadsGive() {
        List<Map<String, Object>> keys = new ArrayList<>();
        for (long id = 1; id <= 200; id++) {
            keys.add(Map.of("id", id));
        }
        for (long id = 1001; id <= 1050; id++) {
            keys.add(Map.of("id", id)); // never written
        }
        Collections.shuffle(keys, new Random(19));

        SELECTS.reset();
        Instant readAt = Instant.now();
        List<LiveRow> rows = adapter.readRows(profiles, keys);
        int rowStatements = SELECTS.reset();
        List<LiveState> states = adapter.checkLiveState(profiles, keys);
        int stateStatements = SELECTS.reset();

        assertThat(rowStatements).isEqualTo(3).isEqualTo(adapter.readStatements(profiles, keys.size()));
        assertThat(stateStatements).isEqualTo(3);
        assertSameRows(
                rows, readAt, () -> pointReads(profiles, keys, (spec, key) -> adapter.readRows(spec, List.of(key))));
        assertThat(states)
                .isEqualTo(pointReads(profiles, keys, (spec, key) -> adapter.checkLiveState(spec, List.of(key))));

        assertThat(rows)
                .hasSize(200)
                .extracting(LiveRow::key)
                .containsExactlyElementsOf(
                        keys.stream().filter(key -> (long) key.get("id") <= 200).toList());
        assertThat(states).extracting(LiveState::key).containsExactlyElementsOf(keys);
        assertThat(states)
                .filteredOn(state -> (long) state.key().get("id") > 1000)
                .noneMatch(LiveState::present);
        LiveRow newer = row(rows, "id", 11L);
        assertThat(newer.lastWriteMicros()).isEqualTo(NEWER);
        assertThat(newer.writtenAfter(CUTOFF)).isTrue();
        assertThat(column(newer, "name")).isEqualTo(new ColumnValue("name", "newer-11", NEWER, null));
        assertThat(column(newer, "score").writeTimeMicros()).isEqualTo(OLD);
        assertThat(state(states, "id", 11L).writtenAfter(CUTOFF)).isTrue();
        assertThat(state(states, "id", 12L).writtenAfter(CUTOFF)).isFalse();
        assertThat(column(row(rows, "id", 7L), "name").ttlSeconds()).isBetween(86_000, 86_400);
        assertThat(column(row(rows, "id", 7L), "tags").value()).isEqualTo(List.of("t7", "x"));
        assertThat(column(row(rows, "id", 8L), "name").ttlSeconds()).isNull();
    }

    @Test
    void onePartitionWithManyClusteringRowsIsReadInAFewStatements() {
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int seq = 0; seq < 250; seq++) {
            keys.add(event("ann", seq, AT.plusSeconds(seq).toString()));
        }
        for (int seq = 0; seq < 30; seq++) {
            keys.add(event("ann", seq, AT.plusSeconds(seq).plusMillis(1).toString())); // no such row
        }
        keys.add(event("sam", 0, AT.toString())); // another partition, with no such row
        Collections.shuffle(keys, new Random(3));

        SELECTS.reset();
        Instant readAt = Instant.now();
        List<LiveRow> rows = adapter.readRows(events, keys);
        int rowStatements = SELECTS.reset();
        List<LiveState> states = adapter.checkLiveState(events, keys);
        int stateStatements = SELECTS.reset();

        // 280 keys of "ann" in ceil(280 / 100) statements, one for "sam"; charged as 281 partitions could cost
        assertThat(rowStatements)
                .isEqualTo(4)
                .isEqualTo(stateStatements)
                .isLessThan(adapter.readStatements(events, keys.size()));
        assertThat(adapter.readStatements(events, keys.size())).isEqualTo(keys.size());
        assertSameRows(
                rows, readAt, () -> pointReads(events, keys, (spec, key) -> adapter.readRows(spec, List.of(key))));
        assertThat(states)
                .isEqualTo(pointReads(events, keys, (spec, key) -> adapter.checkLiveState(spec, List.of(key))));

        assertThat(rows).hasSize(250);
        assertThat(states).extracting(LiveState::key).containsExactlyElementsOf(keys);
        assertThat(state(states, "user", "sam").present()).isFalse();
        LiveRow newer = row(rows, "seq", 5);
        assertThat(column(newer, "body")).isEqualTo(new ColumnValue("body", "newer-5", NEWER, null));
        assertThat(newer.writtenAfter(CUTOFF)).isTrue();
        assertThat(column(row(rows, "seq", 6), "note").ttlSeconds()).isBetween(3_000, 3_600);
        assertThat(column(row(rows, "seq", 7), "note").ttlSeconds()).isNull();
    }

    @Test
    void aTableWithAStaticColumnIsStillRefusedBeforeAnythingIsRead() {
        // a static column belongs to the partition, not to a row: registration refuses the table, and so does every
        // read
        direct.execute("UPDATE multikey.with_static USING TIMESTAMP " + OLD + " SET plan = 'gold' WHERE user = 'ann'");
        direct.execute(
                "INSERT INTO multikey.with_static (user, seq, body) VALUES ('ann', 1, 'b') USING TIMESTAMP " + OLD);
        DatasetSpec withStatic =
                CassandraFixtures.spec(KEYSPACE, "with_static", KeyColumns.of(List.of("user"), List.of("seq")), "user");
        List<Map<String, Object>> keys = List.of(Map.of("user", "ann", "seq", 1), Map.of("user", "ann", "seq", 2));

        SELECTS.reset();
        assertThatThrownBy(() -> adapter.checkLiveState(withStatic, keys))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("static column 'plan'");
        assertThatThrownBy(() -> adapter.readRows(withStatic, keys))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("static column 'plan'");
        assertThatThrownBy(() -> adapter.readStatements(withStatic, keys.size()))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("static column 'plan'");
        assertThat(SELECTS.reset()).isZero();
    }

    @Test
    void keysOfSeveralPartitionsAnswerInTheCallersOrderWithOneStatementPerPartition() {
        List<Map<String, Object>> keys = new ArrayList<>();
        for (String user : List.of("bob", "cy", "dee", "eve")) {
            for (int seq = 0; seq < 12; seq++) {
                keys.add(event(user, seq, AT.plusSeconds(seq).toString()));
            }
        }
        keys.add(event("nobody", 1, AT.plusSeconds(1).toString()));
        Collections.shuffle(keys, new Random(7));

        SELECTS.reset();
        List<LiveState> states = adapter.checkLiveState(events, keys);
        int statements = SELECTS.reset();

        assertThat(statements).isEqualTo(5);
        assertThat(states)
                .isEqualTo(pointReads(events, keys, (spec, key) -> adapter.checkLiveState(spec, List.of(key))));
        assertThat(states).extracting(LiveState::key).containsExactlyElementsOf(keys);
        // "bob" has rows for even seq only, "dee" none at all
        for (LiveState state : states) {
            String user = (String) state.key().get("user");
            int seq = (int) state.key().get("seq");
            boolean written = user.equals("cy") || user.equals("eve") || (user.equals("bob") && seq % 2 == 0);
            assertThat(state.present()).as("%s", state.key()).isEqualTo(written);
        }
    }

    @Test
    void otherSpellingsOfAKeyFindItsRowAsTheirPointReadsDo() {
        Map<String, Object> asWritten = typedKey(UUID, "2024-02-29T12:34:56.789Z", "1.50");
        List<Map<String, Object>> keys = List.of(
                typedKey(UUID.toUpperCase(Locale.ROOT), "2024-02-29T13:34:56.789+01:00", "1.5"),
                asWritten,
                typedKey(UUID, "2024-02-29 12:34:56.789Z", "1.500"),
                typedKey(UUID, AT.toEpochMilli(), new BigDecimal("1.50")),
                typedKey(UUID, Long.toString(AT.toEpochMilli()), "1.5"),
                typedKey(UUID, "2024-02-29T12:34:56.789999Z", "1.50"),
                typedKey(UUID, "2024-02-29T12:34:56.789", "1.50"), // the node's own zone: read alone
                typedKey(UUID, "now", "1.50"), // the node's clock: read alone
                typedKey(UUID, "2024-02-29T12:34:56.789Z", "1.51"));

        SELECTS.reset();
        Instant readAt = Instant.now();
        List<LiveRow> rows = adapter.readRows(typed, keys);
        int statements = SELECTS.reset();
        List<LiveState> states = adapter.checkLiveState(typed, keys);

        assertThat(statements)
                .as("one statement for the partition, a point read for each node-dependent key")
                .isEqualTo(3);
        assertSameRows(
                rows, readAt, () -> pointReads(typed, keys, (spec, key) -> adapter.readRows(spec, List.of(key))));
        assertThat(states)
                .isEqualTo(pointReads(typed, keys, (spec, key) -> adapter.checkLiveState(spec, List.of(key))));
        assertThat(states.subList(0, 6)).allMatch(LiveState::present);
        assertThat(states.get(7).present()).isFalse();
        assertThat(states.get(8).present()).isFalse();
        assertThat(rows.get(1).key()).isEqualTo(asWritten);
        assertThat(column(rows.get(0), "at").value()).isEqualTo(AT.toString());
        assertThat(column(rows.get(0), "d").value()).isEqualTo("1.50");
        assertThat(column(rows.get(0), "b").value()).isEqualTo("yv4=");
    }

    @Test
    void aKeyCassandraRefusesFailsTheCallAsItsPointReadDoes() {
        List<Map<String, Object>> keys =
                List.of(Map.of("id", 1L), Map.of("id", new BigDecimal("1.5")), Map.of("id", 2L));

        assertThatThrownBy(() -> adapter.checkLiveState(profiles, List.of(keys.get(1))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("does not fit its column type");
        assertThatThrownBy(() -> adapter.checkLiveState(profiles, keys))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("does not fit its column type");
    }

    @Test
    void readStatementsIsWhatTheAdapterSends() {
        for (int count : List.of(1, 99, 100, 101, 250, 500)) {
            List<Map<String, Object>> keys = new ArrayList<>();
            for (long id = 1; id <= count; id++) {
                keys.add(Map.of("id", id * 3)); // present and absent
            }
            SELECTS.reset();
            adapter.checkLiveState(profiles, keys);
            assertThat(SELECTS.reset())
                    .as("checkLiveState of %d keys", count)
                    .isEqualTo(adapter.readStatements(profiles, count));
            adapter.readRows(profiles, keys);
            assertThat(SELECTS.reset())
                    .as("readRows of %d keys", count)
                    .isEqualTo(adapter.readStatements(profiles, count));
        }
        assertThat(adapter.readStatements(profiles, 0)).isZero();
        assertThat(adapter.checkLiveState(profiles, List.of())).isEmpty();
        assertThat(SELECTS.reset()).isZero();

        // a clustered table is charged a statement per key: what keys in as many partitions cost
        List<Map<String, Object>> ownPartitions = new ArrayList<>();
        for (int user = 0; user < 120; user++) {
            ownPartitions.add(event("u" + user, 1, AT.toString()));
        }
        SELECTS.reset();
        adapter.checkLiveState(events, ownPartitions);
        assertThat(SELECTS.reset())
                .isEqualTo(adapter.readStatements(events, ownPartitions.size()))
                .isEqualTo(120);
    }

    @Test
    void theKeysPerStatementAreConfigurable() {
        // shares the tracked session with the first adapter, which closes it
        CassandraStoreAdapter tenPerRead = openAdapter(Map.of("max-keys-per-read", "10"));
        List<Map<String, Object>> keys = new ArrayList<>();
        for (long id = 1; id <= 25; id++) {
            keys.add(Map.of("id", id));
        }
        SELECTS.reset();
        List<LiveState> states = tenPerRead.checkLiveState(profiles, keys);

        assertThat(SELECTS.reset()).isEqualTo(3).isEqualTo(tenPerRead.readStatements(profiles, 25));
        assertThat(states).isEqualTo(adapter.checkLiveState(profiles, keys));
    }

    // --- fixtures ---

    private static void writeProfiles() {
        var insert =
                direct.prepare("INSERT INTO multikey.profiles (id, name, score, tags, attrs) VALUES (?, ?, ?, ?, ?)"
                        + " USING TIMESTAMP ? AND TTL ?");
        for (long id = 1; id <= 300; id++) {
            direct.execute(insert.bind(
                    id,
                    "name-" + id,
                    (int) id,
                    List.of("t" + id, "x"),
                    Map.of("k", "v" + id),
                    OLD,
                    id % 7 == 0 ? 86_400 : 0));
        }
        var newer = direct.prepare("UPDATE multikey.profiles USING TIMESTAMP ? SET name = ? WHERE id = ?");
        for (long id = 11; id <= 300; id += 11) {
            direct.execute(newer.bind(NEWER, "newer-" + id, id));
        }
    }

    private static void writeEvents() {
        var insert = direct.prepare("INSERT INTO multikey.events (user, seq, at, body, note) VALUES (?, ?, ?, ?, ?)"
                + " USING TIMESTAMP ? AND TTL ?");
        for (int seq = 0; seq < 250; seq++) {
            direct.execute(insert.bind(
                    "ann", seq, AT.plusSeconds(seq), "body-" + seq, "note-" + seq, OLD, seq % 3 == 0 ? 3_600 : 0));
        }
        for (int seq = 0; seq < 12; seq++) {
            for (String user : List.of("bob", "cy", "eve")) {
                if (!user.equals("bob") || seq % 2 == 0) {
                    direct.execute(insert.bind(user, seq, AT.plusSeconds(seq), "b", "n", OLD, 0));
                }
            }
        }
        direct.execute(
                direct.prepare("UPDATE multikey.events USING TIMESTAMP ? SET body = ? WHERE user = 'ann' AND seq = ?"
                                + " AND at = ?")
                        .bind(NEWER, "newer-5", 5, AT.plusSeconds(5)));
    }

    private static Map<String, Object> event(String user, int seq, String at) {
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("user", user);
        key.put("seq", seq);
        key.put("at", at);
        return key;
    }

    private static Map<String, Object> typedKey(String u, Object at, Object d) {
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("u", u);
        key.put("b", "yv4=");
        key.put("at", at);
        key.put("d", d);
        return key;
    }

    /** Each key alone in its own call, in order, the answers concatenated: what one point read per key gives. */
    private static <T> List<T> pointReads(
            DatasetSpec spec,
            List<Map<String, Object>> keys,
            BiFunction<DatasetSpec, Map<String, Object>, List<T>> read) {
        List<T> all = new ArrayList<>();
        for (Map<String, Object> key : keys) {
            all.addAll(read.apply(spec, key));
        }
        return all;
    }

    /**
     * Equal rows, but a TTL counts down while the point reads run after the multi-key read (at {@code readAt}): it
     * may be lower by the seconds they took, never higher.
     */
    private static void assertSameRows(List<LiveRow> actual, Instant readAt, Supplier<List<LiveRow>> pointReads) {
        List<LiveRow> expected = pointReads.get();
        long tolerance = Duration.between(readAt, Instant.now()).toSeconds() + 1;
        assertThat(actual.stream().map(CassandraMultiKeyReadIT::withoutTtls).toList())
                .isEqualTo(expected.stream()
                        .map(CassandraMultiKeyReadIT::withoutTtls)
                        .toList());
        for (int r = 0; r < actual.size(); r++) {
            for (int c = 0; c < actual.get(r).columns().size(); c++) {
                Integer ttl = actual.get(r).columns().get(c).ttlSeconds();
                Integer expectedTtl = expected.get(r).columns().get(c).ttlSeconds();
                assertThat(ttl == null).isEqualTo(expectedTtl == null);
                if (ttl != null) {
                    assertThat((long) (ttl - expectedTtl)).isBetween(0L, tolerance);
                }
            }
        }
    }

    private static LiveRow withoutTtls(LiveRow row) {
        return new LiveRow(
                row.key(),
                row.columns().stream()
                        .map(c -> new ColumnValue(
                                c.name(), c.value(), c.writeTimeMicros(), c.ttlSeconds() == null ? null : 0))
                        .toList(),
                row.lastWriteMicros());
    }

    private static LiveRow row(List<LiveRow> rows, String column, Object value) {
        return rows.stream()
                .filter(row -> value.equals(row.key().get(column)))
                .findFirst()
                .orElseThrow();
    }

    private static LiveState state(List<LiveState> states, String column, Object value) {
        return states.stream()
                .filter(state -> value.equals(state.key().get(column)))
                .findFirst()
                .orElseThrow();
    }

    private static ColumnValue column(LiveRow row, String name) {
        return row.columns().stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** An adapter on {@link #tracked}, so that every statement it sends is counted. */
    private static CassandraStoreAdapter openAdapter(Map<String, String> extra) {
        CassandraSettings settings = CassandraSettings.from(CassandraFixtures.connection(extra));
        return new CassandraStoreAdapter(
                new CqlRunner(tracked, settings.consistency(), settings.readConcurrency()),
                settings,
                Optional.empty(),
                new NodeDowntimes(Clock.systemUTC()),
                Clock.systemUTC());
    }

    private static CqlSession trackedSession() {
        CassandraEngine engine = CassandraFixtures.engine();
        return CqlSession.builder()
                .addContactPoint(new InetSocketAddress(engine.host(), engine.port()))
                .withLocalDatacenter(engine.localDatacenter())
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
                        .build())
                .addRequestTracker(SELECTS)
                .build();
    }

    /** Counts the SELECTs on this test's keyspace that reach a node: every page and every retry counts. */
    private static final class SelectCounter implements RequestTracker {

        private final AtomicInteger sent = new AtomicInteger();

        /**
         * The count since the last reset. The driver tells its tracker right after it completes a request, on its
         * own thread: wait until the count has stopped moving.
         */
        int reset() {
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            int last = -1;
            while (sent.get() != last && System.nanoTime() < deadline) {
                last = sent.get();
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
            }
            return sent.getAndSet(0);
        }

        @Override
        public void onNodeSuccess(
                Request request,
                long latencyNanos,
                DriverExecutionProfile profile,
                Node node,
                String requestLogPrefix) {
            count(request);
        }

        @Override
        public void onNodeError(
                Request request,
                Throwable error,
                long latencyNanos,
                DriverExecutionProfile profile,
                Node node,
                String requestLogPrefix) {
            count(request);
        }

        private void count(Request request) {
            if (request instanceof BoundStatement bound) {
                PreparedStatement prepared = bound.getPreparedStatement();
                if (prepared.getQuery().startsWith("SELECT")
                        && prepared.getQuery().contains("\"" + KEYSPACE + "\".")) {
                    sent.incrementAndGet();
                }
            }
        }

        @Override
        public void close() {}
    }
}
