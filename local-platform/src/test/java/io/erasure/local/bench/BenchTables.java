package io.erasure.local.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The benchmark's live tables, one set per size {@code n}, all written 30 days ago so nothing is newer than the
 * backups:
 * <ul>
 *   <li>PostgreSQL {@code bench.members_<n>}: the identifier source, {@code n} members of whom every
 *       {@code deletableEvery}th left 10 days ago;</li>
 *   <li>PostgreSQL {@code bench.accounts_<n>}: one account per member (key {@code account_id}, identifier
 *       {@code member_id}, conditional column {@code updated_at});</li>
 *   <li>Cassandra {@code bench.profiles_<n>}: one profile per member (partition key {@code member_id}).</li>
 * </ul>
 * The adapter's own rate is measured on copies of the deletable rows ({@link #loadAdapterCopies}), so the pipeline's
 * tables are left to the pipeline.
 */
final class BenchTables implements AutoCloseable {

    static final String SCHEMA = "bench";

    private final String jdbcUrl;
    private final String user;
    private final String password;
    private final CqlSession cassandra;

    BenchTables(String jdbcUrl, String user, String password, CqlSession cassandra) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
        this.cassandra = cassandra;
    }

    /**
     * The three tables of one data set: {@code <label>members_<n>}, {@code <label>accounts_<n>},
     * {@code <label>profiles_<n>}.
     */
    record Names(String members, String accounts, String profiles) {
        static Names of(String label, int n) {
            return new Names(label + "members_" + n, label + "accounts_" + n, label + "profiles_" + n);
        }
    }

    static boolean deletable(long member, int deletableEvery) {
        return member % deletableEvery == 0;
    }

    void load(Names names, int n, int deletableEvery) throws SQLException, InterruptedException {
        String members = names.members();
        String accounts = names.accounts();
        String profiles = names.profiles();
        Instant longAgo = Instant.now().minus(Duration.ofDays(30));
        Instant left = Instant.now().minus(Duration.ofDays(10));
        try (Connection pg = postgres();
                Statement sql = pg.createStatement()) {
            sql.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
            sql.execute("DROP TABLE IF EXISTS bench." + members + ", bench." + accounts);
            sql.execute("CREATE TABLE bench." + members + " (member_id bigint PRIMARY KEY, left_at timestamptz,"
                    + " updated_at timestamptz NOT NULL)");
            sql.execute("CREATE TABLE bench." + accounts + " (account_id bigint PRIMARY KEY, member_id bigint NOT NULL,"
                    + " email text NOT NULL, payload text NOT NULL, updated_at timestamptz NOT NULL)");
            try (var memberRows = pg.prepareStatement("INSERT INTO bench." + members + " SELECT i,"
                            + " CASE WHEN i % ? = 0 THEN ?::timestamptz END, ?::timestamptz"
                            + " FROM generate_series(1, ?) AS i");
                    var accountRows = pg.prepareStatement("INSERT INTO bench." + accounts + " SELECT i, i,"
                            + " 'member' || i || '@example.com', md5(i::text), ?::timestamptz"
                            + " FROM generate_series(1, ?) AS i")) {
                memberRows.setInt(1, deletableEvery);
                memberRows.setTimestamp(2, Timestamp.from(left));
                memberRows.setTimestamp(3, Timestamp.from(longAgo));
                memberRows.setInt(4, n);
                memberRows.execute();
                accountRows.setTimestamp(1, Timestamp.from(longAgo));
                accountRows.setInt(2, n);
                accountRows.execute();
            }
            sql.execute("VACUUM ANALYZE bench." + members + ", bench." + accounts);
        }
        cassandra.execute("CREATE KEYSPACE IF NOT EXISTS " + SCHEMA
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        cassandra.execute("DROP TABLE IF EXISTS bench." + profiles);
        cassandra.execute("CREATE TABLE bench." + profiles + " (member_id bigint PRIMARY KEY, display_name text,"
                + " email text, payload text)");
        writeProfiles(profiles, 1, n, 1, longAgo);
    }

    /** Copies of the deletable rows of size {@code n}, in their own tables, for the adapter's own rate. */
    void loadAdapterCopies(Names names, int n, int deletableEvery) throws SQLException, InterruptedException {
        Instant longAgo = Instant.now().minus(Duration.ofDays(30));
        String table = "adapter_" + names.accounts();
        try (Connection pg = postgres();
                Statement sql = pg.createStatement()) {
            sql.execute("DROP TABLE IF EXISTS bench." + table);
            sql.execute("CREATE TABLE bench." + table + " (LIKE bench." + names.accounts() + " INCLUDING ALL)");
            try (var copy =
                    pg.prepareStatement("INSERT INTO bench." + table + " SELECT i, i, 'member' || i || '@example.com',"
                            + " md5(i::text), ?::timestamptz FROM generate_series(?, ?, ?) AS i")) {
                copy.setTimestamp(1, Timestamp.from(longAgo));
                copy.setInt(2, deletableEvery);
                copy.setInt(3, n);
                copy.setInt(4, deletableEvery);
                copy.execute();
            }
            sql.execute("VACUUM ANALYZE bench." + table);
        }
        cassandra.execute("DROP TABLE IF EXISTS bench.adapter_" + names.profiles());
        cassandra.execute("CREATE TABLE bench.adapter_" + names.profiles()
                + " (member_id bigint PRIMARY KEY, display_name text," + " email text, payload text)");
        writeProfiles("adapter_" + names.profiles(), deletableEvery, n, deletableEvery, longAgo);
    }

    /**
     * Profiles {@code from, from + step, ... <= to}, one asynchronous insert per row (one partition each), 128 in
     * flight.
     */
    private void writeProfiles(String table, long from, long to, long step, Instant written)
            throws InterruptedException {
        PreparedStatement insert = cassandra.prepare("INSERT INTO bench." + table
                + " (member_id, display_name, email, payload)" + " VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
        long micros = written.toEpochMilli() * 1000;
        int window = 128;
        Semaphore inFlight = new Semaphore(window);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        for (long member = from; member <= to; member += step) {
            inFlight.acquire();
            if (failed.get() != null) {
                throw new IllegalStateException("loading bench." + table + " failed", failed.get());
            }
            CompletionStage<AsyncResultSet> sent = cassandra.executeAsync(insert.bind(
                    member,
                    "Member " + member,
                    "member" + member + "@example.com",
                    Long.toHexString(member * 0x9E3779B97F4A7C15L),
                    micros));
            sent.whenComplete((rs, error) -> {
                if (error != null) {
                    failed.compareAndSet(null, error);
                }
                inFlight.release();
            });
        }
        inFlight.acquire(window);
        if (failed.get() != null) {
            throw new IllegalStateException("loading bench." + table + " failed", failed.get());
        }
    }

    /** Rows left in a table: what the pipeline left behind. */
    long postgresRows(String table) throws SQLException {
        try (Connection pg = postgres();
                Statement sql = pg.createStatement();
                var rs = sql.executeQuery("SELECT count(*) FROM bench." + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    Connection postgres() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, user, password);
    }

    @Override
    public void close() {
        cassandra.close();
    }
}
