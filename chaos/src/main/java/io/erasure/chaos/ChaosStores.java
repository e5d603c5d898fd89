package io.erasure.chaos;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.deletionlog.client.KeyHash;
import io.erasure.deletionlog.client.LogSchema;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The chaos tables in the live engines, reached directly (never through the platform, never through the
 * {@link TcpGate}): PostgreSQL {@code chaos.members} (the identifier source), {@code chaos.orders} with
 * {@code chaos.order_items}, Cassandra {@code chaos.profiles}, Redis {@code chaos-profile:<member>}, and the deletion
 * log's {@code records_by_run}. What the checks compare with the trial's plan is read here.
 */
final class ChaosStores implements AutoCloseable {

    static final String SCHEMA = "chaos";

    private final String jdbcUrl;
    private final String user;
    private final String password;
    private final CqlSession cassandra;
    private final RedisClient redisClient;
    private final StatefulRedisConnection<String, String> redisConnection;

    ChaosStores(
            String jdbcUrl,
            String user,
            String password,
            String cassandraContactPoint,
            String datacenter,
            String redisUri) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
        String[] hostPort = cassandraContactPoint.split(":");
        this.cassandra = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])))
                .withLocalDatacenter(datacenter)
                // schema changes, a node replaying its commit log and a loaded host take longer than the 2 s default
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
                        // the node is crashed and restarted on purpose: reconnect within a second or two of its return
                        .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(500))
                        .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(2))
                        .build())
                .build();
        this.redisClient = RedisClient.create(redisUri);
        this.redisConnection = redisClient.connect();
    }

    /**
     * Creates the tables once, before the datasets are registered (registration checks them against the live schema).
     */
    void createTables() throws SQLException {
        try (Connection pg = postgres();
                Statement ddl = pg.createStatement()) {
            ddl.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
            ddl.execute("CREATE TABLE IF NOT EXISTS chaos.members (member_id bigint PRIMARY KEY, email text NOT NULL,"
                    + " left_at timestamptz, updated_at timestamptz NOT NULL)");
            ddl.execute(
                    "CREATE TABLE IF NOT EXISTS chaos.orders (order_id bigint PRIMARY KEY, member_id bigint NOT NULL,"
                            + " total numeric(10,2) NOT NULL, updated_at timestamptz NOT NULL)");
            ddl.execute("CREATE INDEX IF NOT EXISTS chaos_orders_member ON chaos.orders (member_id)");
            ddl.execute("CREATE TABLE IF NOT EXISTS chaos.order_items (item_id bigint PRIMARY KEY,"
                    + " order_id bigint NOT NULL REFERENCES chaos.orders (order_id), sku text NOT NULL,"
                    + " quantity int NOT NULL, updated_at timestamptz NOT NULL)");
        }
        cassandra.execute("CREATE KEYSPACE IF NOT EXISTS " + SCHEMA
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        cassandra.execute("CREATE TABLE IF NOT EXISTS chaos.profiles (member_id bigint PRIMARY KEY, display_name text,"
                + " email text, country text)");
    }

    /** The trial's rows, all written 30 days ago (before any backup); the departed left 10 days ago. */
    void load(TrialData data) throws SQLException {
        // a node crashed in the trial before may be back while this session has not reconnected yet
        whenTheNodeAnswers(() -> cassandra.execute("SELECT release_version FROM system.local"));
        Instant longAgo = Instant.now().minus(Duration.ofDays(30));
        Instant left = Instant.now().minus(Duration.ofDays(10));
        try (Connection pg = postgres()) {
            pg.setAutoCommit(false);
            try (var members = pg.prepareStatement("INSERT INTO chaos.members VALUES (?, ?, ?, ?)");
                    var orders = pg.prepareStatement("INSERT INTO chaos.orders VALUES (?, ?, ?, ?)");
                    var items = pg.prepareStatement("INSERT INTO chaos.order_items VALUES (?, ?, ?, ?, ?)")) {
                for (long member : data.members()) {
                    boolean departed = TrialData.departed(member);
                    members.setLong(1, member);
                    members.setString(2, TrialData.email(member));
                    members.setTimestamp(3, departed ? Timestamp.from(left) : null);
                    members.setTimestamp(4, Timestamp.from(departed ? left : longAgo));
                    members.addBatch();
                    for (int o = 0; o < TrialData.ORDERS_PER_MEMBER; o++) {
                        long order = TrialData.order(member, o);
                        orders.setLong(1, order);
                        orders.setLong(2, member);
                        orders.setBigDecimal(3, TrialData.total(order));
                        orders.setTimestamp(4, Timestamp.from(longAgo));
                        orders.addBatch();
                        for (int i = 0; i < TrialData.ITEMS_PER_ORDER; i++) {
                            long item = TrialData.item(order, i);
                            items.setLong(1, item);
                            items.setLong(2, order);
                            items.setString(3, "sku-" + (order % 97));
                            items.setInt(4, TrialData.quantity(item));
                            items.setTimestamp(5, Timestamp.from(longAgo));
                            items.addBatch();
                        }
                    }
                }
                members.executeBatch();
                orders.executeBatch();
                items.executeBatch();
            }
            pg.commit();
        }
        PreparedStatement insert =
                cassandra.prepare("INSERT INTO chaos.profiles (member_id, display_name, email, country)"
                        + " VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
        long micros = longAgo.toEpochMilli() * 1000;
        List<Long> members = data.members();
        for (int from = 0; from < members.size(); from += 100) {
            var batch = BatchStatement.builder(BatchType.UNLOGGED);
            for (long member : members.subList(from, Math.min(from + 100, members.size()))) {
                batch.addStatement(insert.bind(
                        member,
                        TrialData.displayName(member),
                        TrialData.email(member),
                        TrialData.country(member),
                        micros));
            }
            cassandra.execute(batch.build());
        }
        RedisCommands<String, String> redis = redisConnection.sync();
        for (long member : members) {
            redis.set(TrialData.cacheKey(member), "{\"member_id\":" + member + "}");
        }
    }

    /** What changes between the backups and the run: members who come back, rows written again. */
    void afterBackup(TrialData data) throws SQLException {
        try (Connection pg = postgres();
                var back = pg.prepareStatement(
                        "UPDATE chaos.members SET left_at = NULL, updated_at = now() WHERE member_id = ?");
                var order = pg.prepareStatement(
                        "UPDATE chaos.orders SET total = ?, updated_at = now() WHERE order_id = ?")) {
            for (long member : data.reactivated()) {
                back.setLong(1, member);
                back.addBatch();
            }
            back.executeBatch();
            for (long member : data.rewritten()) {
                for (int o = 0; o < TrialData.ORDERS_PER_MEMBER; o++) {
                    long id = TrialData.order(member, o);
                    order.setBigDecimal(1, TrialData.rewrittenTotal(id));
                    order.setLong(2, id);
                    order.addBatch();
                }
            }
            order.executeBatch();
        }
        PreparedStatement update = cassandra.prepare("UPDATE chaos.profiles SET display_name = ? WHERE member_id = ?");
        for (long member : data.rewritten()) {
            cassandra.execute(update.bind(TrialData.rewrittenName(member), member));
        }
    }

    /** The trial's rows as the engines hold them now. */
    Live read(TrialData data) throws SQLException {
        return whenTheNodeAnswers(() -> readOnce(data));
    }

    private Live readOnce(TrialData data) throws SQLException {
        Map<Long, List<String>> profiles = new HashMap<>();
        PreparedStatement select = cassandra.prepare(
                "SELECT member_id, display_name, email, country" + " FROM chaos.profiles WHERE member_id IN ?");
        List<Long> members = data.members();
        for (int from = 0; from < members.size(); from += 100) {
            for (Row row :
                    cassandra.execute(select.bind(members.subList(from, Math.min(from + 100, members.size()))))) {
                profiles.put(
                        row.getLong("member_id"),
                        Arrays.asList(row.getString("display_name"), row.getString("email"), row.getString("country")));
            }
        }
        Map<Long, BigDecimal> orders = new HashMap<>();
        Map<Long, Integer> items = new HashMap<>();
        try (Connection pg = postgres();
                var orderRows = pg.prepareStatement(
                        "SELECT order_id, total FROM chaos.orders WHERE member_id BETWEEN ? AND ?");
                var itemRows = pg.prepareStatement(
                        "SELECT i.item_id, i.quantity FROM chaos.order_items i" + " WHERE i.item_id BETWEEN ? AND ?")) {
            orderRows.setLong(1, data.base() + 1);
            orderRows.setLong(2, data.base() + TrialData.MEMBERS);
            try (ResultSet rs = orderRows.executeQuery()) {
                while (rs.next()) {
                    orders.put(rs.getLong(1), rs.getBigDecimal(2));
                }
            }
            itemRows.setLong(1, TrialData.item(TrialData.order(data.base() + 1, 0), 0));
            itemRows.setLong(2, TrialData.item(TrialData.order(data.base() + TrialData.MEMBERS, 9), 9));
            try (ResultSet rs = itemRows.executeQuery()) {
                while (rs.next()) {
                    items.put(rs.getLong(1), rs.getInt(2));
                }
            }
        }
        Set<Long> cached = new HashSet<>();
        RedisCommands<String, String> redis = redisConnection.sync();
        for (long member : data.members()) {
            if (redis.exists(TrialData.cacheKey(member)) > 0) {
                cached.add(member);
            }
        }
        return new Live(profiles, orders, items, cached);
    }

    /** The trial's rows as the engines hold them: profile columns (display name, email, country) by member, etc. */
    record Live(
            Map<Long, List<String>> profiles,
            Map<Long, BigDecimal> orders,
            Map<Long, Integer> items,
            Set<Long> cached) {}

    /** How many records each key of {@code dataset} has in the deletion log under any of {@code origins} (run ids). */
    Map<String, Integer> loggedKeys(List<String> origins, String dataset) throws SQLException {
        return whenTheNodeAnswers(() -> loggedKeysOnce(origins, dataset));
    }

    private Map<String, Integer> loggedKeysOnce(List<String> origins, String dataset) {
        Map<String, Integer> counts = new HashMap<>();
        PreparedStatement select = cassandra.prepare(
                "SELECT dataset, key_hash FROM " + LogSchema.BY_RUN + " WHERE origin_id = ? AND shard = ?");
        for (String origin : origins) {
            for (int shard = 0; shard < LogSchema.RUN_SHARDS; shard++) {
                for (Row row : cassandra.execute(select.bind(origin, shard).setPageSize(1000))) {
                    if (dataset.equals(row.getString("dataset"))) {
                        counts.merge(row.getString("key_hash"), 1, Integer::sum);
                    }
                }
            }
        }
        return counts;
    }

    static String profileKeyHash(String dataset, long member) {
        return KeyHash.of(dataset, Map.of("member_id", member));
    }

    static String orderKeyHash(String dataset, long order) {
        return KeyHash.of(dataset, Map.of("order_id", order));
    }

    /** What a read of the engines needs, retried for a while where the Cassandra node has just been restarted. */
    interface Read<T> {
        T get() throws SQLException;
    }

    private static <T> T whenTheNodeAnswers(Read<T> read) throws SQLException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            try {
                return read.get();
            } catch (AllNodesFailedException | DriverTimeoutException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw notYet;
                }
            }
        }
    }

    /** Removes the trial's rows, so the next trial starts from empty tables. */
    void clear(TrialData data) throws SQLException {
        whenTheNodeAnswers(() -> {
            clearOnce(data);
            return null;
        });
    }

    private void clearOnce(TrialData data) throws SQLException {
        try (Connection pg = postgres();
                Statement sql = pg.createStatement()) {
            // a restore abandoned by a killed service may still hold a lock: fail rather than wait for ever
            sql.execute("SET lock_timeout = '60s'");
            sql.execute("TRUNCATE chaos.order_items, chaos.orders, chaos.members");
        }
        cassandra.execute("TRUNCATE chaos.profiles");
        RedisCommands<String, String> redis = redisConnection.sync();
        redis.del(data.members().stream().map(TrialData::cacheKey).toArray(String[]::new));
    }

    CqlSession cassandra() {
        return cassandra;
    }

    Connection postgres() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, user, password);
    }

    @Override
    public void close() {
        redisConnection.close();
        redisClient.shutdown();
        cassandra.close();
    }
}
