package io.erasure.store.postgres.load;

import io.erasure.store.spi.LoadSignal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * PostgreSQL's load for the deletion throttle, from five parts each normalised to 0..1:
 * <ul>
 *   <li>{@code connections}: client sessions over {@code max_connections} (a database out of connection slots
 *       refuses live traffic);</li>
 *   <li>{@code lock_waits}: sessions waiting for a lock ({@code pg_locks} not granted, visible without extra
 *       privileges) over {@code lock-wait-limit}: deletes that queue behind, or in front of, live writes;</li>
 *   <li>{@code latency}: the measured round trip of a trivial query over {@code latency-limit-ms}; it does not
 *       need {@code pg_stat_statements}, which many databases lack;</li>
 *   <li>{@code active_sessions}: client sessions running a statement now (this one aside) over
 *       {@code active-session-limit}: work the database has in hand, whoever sent it;</li>
 *   <li>{@code cpu}: those of them on a CPU (active with no wait event: not waiting for I/O, a lock or a client) over
 *       {@code cpus}, the database host's cores: PostgreSQL's CPU use as seen from SQL, without access to the
 *       host.</li>
 * </ul>
 * Counting other users' sessions in {@code pg_stat_activity} needs the {@code pg_monitor} role; without it the
 * connection count is a lower bound.
 */
public final class PostgresLoad {

    private static final String COUNTS = """
            SELECT (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend') AS connections,
                   current_setting('max_connections')::int AS max_connections,
                   (SELECT count(DISTINCT pid) FROM pg_locks WHERE NOT granted) AS lock_waits,
                   count(*) FILTER (WHERE state = 'active') AS active,
                   count(*) FILTER (WHERE state = 'active' AND wait_event IS NULL) AS on_cpu
              FROM pg_stat_activity
             WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()""";

    private final int latencyLimitMs;
    private final int lockWaitLimit;
    private final int activeSessionLimit;
    private final int cpus;
    private final Clock clock;
    private final LongSupplier nanoTime;

    public PostgresLoad(
            int latencyLimitMs,
            int lockWaitLimit,
            int activeSessionLimit,
            int cpus,
            Clock clock,
            LongSupplier nanoTime) {
        this.latencyLimitMs = latencyLimitMs;
        this.lockWaitLimit = lockWaitLimit;
        this.activeSessionLimit = activeSessionLimit;
        this.cpus = cpus;
        this.clock = clock;
        this.nanoTime = nanoTime;
    }

    public LoadSignal measure(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            long start = nanoTime.getAsLong();
            try (ResultSet rs = statement.executeQuery("SELECT 1")) {
                rs.next();
            }
            double latencyMs = (nanoTime.getAsLong() - start) / 1_000_000.0;
            try (ResultSet rs = statement.executeQuery(COUNTS)) {
                rs.next();
                return LoadSignal.of(
                        Map.of(
                                "connections",
                                        LoadSignal.ratio(rs.getLong("connections"), rs.getLong("max_connections")),
                                "lock_waits", LoadSignal.ratio(rs.getLong("lock_waits"), lockWaitLimit),
                                "latency", LoadSignal.ratio(latencyMs, latencyLimitMs),
                                "active_sessions", LoadSignal.ratio(rs.getLong("active"), activeSessionLimit),
                                "cpu", LoadSignal.ratio(rs.getLong("on_cpu"), cpus)),
                        clock.instant());
            }
        }
    }
}
