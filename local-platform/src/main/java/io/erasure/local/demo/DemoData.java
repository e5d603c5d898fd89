package io.erasure.local.demo;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The demo's live data, generated so that the number of deletable rows is known in advance:
 * <ul>
 *   <li>PostgreSQL {@code demo.members}: {@value #MEMBERS} members; every {@value #DEPARTED_EVERY}th has left
 *       ({@code left_at} {@value #LEFT_DAYS_AGO} days ago, past the 7-day grace period): the identifier source;</li>
 *   <li>Cassandra {@code demo.member_profiles}: one profile per member (the identifier is the partition key),
 *       with a Redis cache copy at {@code profile:<member_id>} and a search-index copy, document
 *       {@code member-<member_id>} of the OpenSearch index {@value #SEARCH_INDEX};</li>
 *   <li>PostgreSQL {@code demo.orders}: {@value #ORDERS_PER_MEMBER} orders per member, each with
 *       {@value #ITEMS_PER_ORDER} {@code demo.order_items} (children, deleted with their order).</li>
 * </ul>
 * After the backups, {@link #touchAfterBackup} makes the live data differ from them in the two ways
 * validation must catch: a few departed members come back (no longer deletable), and a few departed
 * members' profiles are written again (newer than the backup's cut-off).
 */
public final class DemoData {

    public static final int MEMBERS = 2_000;
    public static final int DEPARTED_EVERY = 10;
    public static final int LEFT_DAYS_AGO = 10;
    public static final int ORDERS_PER_MEMBER = 3;
    public static final int ITEMS_PER_ORDER = 2;
    /** Departed members who come back after the backup: validation drops their rows. */
    public static final int RETURNING = 5;
    /** Departed members whose profile is written again after the backup: it survives. */
    public static final int REWRITTEN = 5;

    private final String jdbcUrl;
    private final String jdbcUser;
    private final String jdbcPassword;
    private final String cassandraContactPoint;
    private final String cassandraDatacenter;
    private final String redisUri;
    private final String searchUrl;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** The OpenSearch index of member profiles (the profiles' search copy). */
    public static final String SEARCH_INDEX = "profiles";

    public DemoData(
            String jdbcUrl,
            String jdbcUser,
            String jdbcPassword,
            String cassandraContactPoint,
            String cassandraDatacenter,
            String redisUri,
            String searchUrl) {
        this.jdbcUrl = jdbcUrl;
        this.jdbcUser = jdbcUser;
        this.jdbcPassword = jdbcPassword;
        this.cassandraContactPoint = cassandraContactPoint;
        this.cassandraDatacenter = cassandraDatacenter;
        this.redisUri = redisUri;
        this.searchUrl = searchUrl;
    }

    /** What a run of each demo dataset should delete, given the generated data. */
    public record Expected(long departed, long profiles, long orders, long orderItems, long cachedProfiles) {}

    public static Expected expected() {
        long departed = MEMBERS / DEPARTED_EVERY;
        long profiles = departed - RETURNING - REWRITTEN;
        long orders = (departed - RETURNING) * ORDERS_PER_MEMBER;
        return new Expected(departed, profiles, orders, orders * ITEMS_PER_ORDER, profiles);
    }

    /** Departed members: ids DEPARTED_EVERY, 2*DEPARTED_EVERY, ... */
    static boolean departed(long memberId) {
        return memberId % DEPARTED_EVERY == 0;
    }

    /** Creates (or re-creates) every demo table and fills it, all written well before any backup. */
    public void generate() throws SQLException {
        Instant longAgo = Instant.now().minus(Duration.ofDays(30));
        Instant left = Instant.now().minus(Duration.ofDays(LEFT_DAYS_AGO));
        try (Connection pg = postgres()) {
            pg.setAutoCommit(false);
            try (Statement ddl = pg.createStatement()) {
                ddl.execute("DROP SCHEMA IF EXISTS demo CASCADE");
                ddl.execute("CREATE SCHEMA demo");
                ddl.execute("CREATE TABLE demo.members (member_id bigint PRIMARY KEY, email text NOT NULL,"
                        + " left_at timestamptz, updated_at timestamptz NOT NULL)");
                ddl.execute("CREATE TABLE demo.orders (order_id bigint PRIMARY KEY, member_id bigint NOT NULL,"
                        + " total numeric(10,2) NOT NULL, updated_at timestamptz NOT NULL)");
                ddl.execute("CREATE INDEX orders_member ON demo.orders (member_id)");
                ddl.execute("CREATE TABLE demo.order_items (item_id bigint PRIMARY KEY,"
                        + " order_id bigint NOT NULL REFERENCES demo.orders (order_id), sku text NOT NULL,"
                        + " quantity int NOT NULL, updated_at timestamptz NOT NULL)");
            }
            try (var members = pg.prepareStatement("INSERT INTO demo.members VALUES (?, ?, ?, ?)");
                    var orders = pg.prepareStatement("INSERT INTO demo.orders VALUES (?, ?, ?, ?)");
                    var items = pg.prepareStatement("INSERT INTO demo.order_items VALUES (?, ?, ?, ?, ?)")) {
                for (long member = 1; member <= MEMBERS; member++) {
                    members.setLong(1, member);
                    members.setString(2, "member" + member + "@example.com");
                    members.setTimestamp(3, departed(member) ? Timestamp.from(left) : null);
                    members.setTimestamp(4, Timestamp.from(departed(member) ? left : longAgo));
                    members.addBatch();
                    for (int o = 0; o < ORDERS_PER_MEMBER; o++) {
                        long orderId = member * 10 + o;
                        orders.setLong(1, orderId);
                        orders.setLong(2, member);
                        orders.setBigDecimal(3, BigDecimal.valueOf(1000 + member + o, 2));
                        orders.setTimestamp(4, Timestamp.from(longAgo));
                        orders.addBatch();
                        for (int i = 0; i < ITEMS_PER_ORDER; i++) {
                            items.setLong(1, orderId * 10 + i);
                            items.setLong(2, orderId);
                            items.setString(3, "sku-" + (orderId % 97));
                            items.setInt(4, i + 1);
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
        try (CqlSession cassandra = cassandra()) {
            cassandra.execute("CREATE KEYSPACE IF NOT EXISTS demo WITH replication ="
                    + " {'class': 'SimpleStrategy', 'replication_factor': 1}");
            cassandra.execute("DROP TABLE IF EXISTS demo.member_profiles");
            cassandra.execute("CREATE TABLE demo.member_profiles (member_id bigint PRIMARY KEY, display_name text,"
                    + " email text, country text)");
            PreparedStatement insert = cassandra.prepare("INSERT INTO demo.member_profiles (member_id, display_name,"
                    + " email, country) VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
            long writtenMicros = longAgo.toEpochMilli() * 1000;
            for (long from = 1; from <= MEMBERS; from += 100) {
                var batch = BatchStatement.builder(BatchType.UNLOGGED);
                for (long member = from; member < from + 100 && member <= MEMBERS; member++) {
                    batch.addStatement(insert.bind(
                            member,
                            "Member " + member,
                            "member" + member + "@example.com",
                            member % 3 == 0 ? "FR" : "NL",
                            writtenMicros));
                }
                cassandra.execute(batch.build());
            }
        }
        try (RedisClient client = RedisClient.create(redisUri);
                StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            for (long member = 1; member <= MEMBERS; member++) {
                redis.set(
                        "profile:" + member,
                        "{\"member_id\":" + member + ",\"display_name\":\"Member " + member + "\"}");
            }
        }
        indexProfiles();
    }

    /** (Re)creates the search index of profiles and indexes every member's, refreshed. */
    private void indexProfiles() {
        search("DELETE", "/" + SEARCH_INDEX, null, true);
        search(
                "PUT",
                "/" + SEARCH_INDEX,
                "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0}, \"mappings\": {\"properties\":"
                        + " {\"member_id\": {\"type\": \"long\"}, \"display_name\": {\"type\": \"text\"},"
                        + " \"country\": {\"type\": \"keyword\"}}}}",
                false);
        StringBuilder bulk = new StringBuilder();
        for (long member = 1; member <= MEMBERS; member++) {
            bulk.append("{\"index\": {\"_id\": \"member-").append(member).append("\"}}\n");
            bulk.append("{\"member_id\": ")
                    .append(member)
                    .append(", \"display_name\": \"Member ")
                    .append(member)
                    .append("\", \"country\": \"")
                    .append(member % 3 == 0 ? "FR" : "NL")
                    .append("\"}\n");
        }
        search("POST", "/" + SEARCH_INDEX + "/_bulk?refresh=true", bulk.toString(), false);
    }

    /** True if the search index holds the member's profile document. */
    public boolean searchHas(long memberId) {
        return search("GET", "/" + SEARCH_INDEX + "/_doc/member-" + memberId, null, true)
                .contains("\"found\":true");
    }

    private String search(String method, String path, @Nullable String body, boolean notFoundIsFine) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(searchUrl + path))
                .header("Content-Type", path.contains("_bulk") ? "application/x-ndjson" : "application/json")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300 && !(notFoundIsFine && response.statusCode() == 404)) {
                throw new IllegalStateException("OpenSearch " + method + " " + path + " answered "
                        + response.statusCode() + ": " + response.body());
            }
            if (path.contains("_bulk") && response.body().contains("\"errors\":true")) {
                throw new IllegalStateException("indexing the demo profiles failed: " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException("OpenSearch at " + searchUrl + " cannot be reached", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Makes the live data newer than the backups in the two ways validation must catch. */
    public void touchAfterBackup() throws SQLException {
        try (Connection pg = postgres();
                var back = pg.prepareStatement(
                        "UPDATE demo.members SET left_at = NULL, updated_at = now() WHERE member_id = ?")) {
            for (int i = 1; i <= RETURNING; i++) {
                back.setLong(1, (long) i * DEPARTED_EVERY);
                back.addBatch();
            }
            back.executeBatch();
        }
        try (CqlSession cassandra = cassandra()) {
            PreparedStatement update =
                    cassandra.prepare("UPDATE demo.member_profiles SET display_name = ?" + " WHERE member_id = ?");
            for (int i = 1; i <= REWRITTEN; i++) {
                long member = (long) (RETURNING + i) * DEPARTED_EVERY;
                cassandra.execute(update.bind("Member " + member + " (written after the backup)", member));
            }
        }
    }

    private Connection postgres() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, jdbcUser, jdbcPassword);
    }

    private CqlSession cassandra() {
        String[] hostPort = cassandraContactPoint.split(":");
        return CqlSession.builder()
                .addContactPoint(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])))
                .withLocalDatacenter(cassandraDatacenter)
                .build();
    }
}
