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
 * PostgreSQL's load for the deletion throttle, from three parts each normalised to 0..1:
 * <ul>
 *   <li>{@code connections}: client sessions over {@code max_connections} (a database out of connection slots
 *       refuses live traffic);</li>
 *   <li>{@code lock_waits}: sessions waiting for a lock ({@code pg_locks} not granted, visible without extra
 *       privileges) over {@code lock-wait-limit}: deletes that queue behind, or in front of, live writes;</li>
 *   <li>{@code latency}: the measured round trip of a trivial query over {@code latency-limit-ms}; it does not
 *       need {@code pg_stat_statements}, which many databases lack.</li>
 * </ul>
 * Counting other users' sessions in {@code pg_stat_activity} needs the {@code pg_monitor} role; without it the
 * connection count is a lower bound.
 */
public final class PostgresLoad {

    private static final String COUNTS = """
            SELECT (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend') AS connections,
                   current_setting('max_connections')::int AS max_connections,
                   (SELECT count(DISTINCT pid) FROM pg_locks WHERE NOT granted) AS lock_waits""";

    private final int latencyLimitMs;
    private final int lockWaitLimit;
    private final Clock clock;
    private final LongSupplier nanoTime;

    public PostgresLoad(int latencyLimitMs, int lockWaitLimit, Clock clock, LongSupplier nanoTime) {
        this.latencyLimitMs = latencyLimitMs;
        this.lockWaitLimit = lockWaitLimit;
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
                return LoadSignal.of(Map.of(
                        "connections", LoadSignal.ratio(rs.getLong("connections"), rs.getLong("max_connections")),
                        "lock_waits", LoadSignal.ratio(rs.getLong("lock_waits"), lockWaitLimit),
                        "latency", LoadSignal.ratio(latencyMs, latencyLimitMs)), clock.instant());
            }
        }
    }
}
