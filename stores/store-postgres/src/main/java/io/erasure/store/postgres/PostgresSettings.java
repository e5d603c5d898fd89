package io.erasure.store.postgres;

import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;

/**
 * The settings of one PostgreSQL connection ({@code erasure.connections.<ref>.settings.*}).
 *
 * @param url                {@code url}: {@code jdbc:postgresql://host:port/database}
 * @param username           {@code username}
 * @param password           {@code password}
 * @param poolSize           {@code pool-size}: connections kept by the adapter (default 4)
 * @param batchSize          {@code batch-size}: keys per delete statement, each its own transaction (default 200),
 *                           so row locks are held briefly and a failure loses little work
 * @param statementTimeoutMs {@code statement-timeout-ms}: {@code statement_timeout} of the adapter's sessions (default
 *                           30000)
 * @param lockTimeoutMs      {@code lock-timeout-ms}: {@code lock_timeout}: a delete waiting on a live transaction's
 *                           lock gives up (and is retried later) rather than queueing traffic behind it (default 2000)
 * @param latencyLimitMs     {@code latency-limit-ms}: the round trip that counts as fully loaded (default 100)
 * @param lockWaitLimit      {@code lock-wait-limit}: sessions waiting on locks that count as fully loaded (default 10)
 * @param activeSessionLimit {@code active-session-limit}: sessions running a statement at once that count as fully
 *                           loaded (default 16); about twice the database's cores
 * @param cpus               {@code cpus}: the database host's cores; that many sessions running on a CPU (active, not
 *                           waiting for I/O, a lock or a client) count as fully loaded (default 4)
 */
public record PostgresSettings(
        String url,
        String username,
        String password,
        int poolSize,
        int batchSize,
        int statementTimeoutMs,
        int lockTimeoutMs,
        int latencyLimitMs,
        int lockWaitLimit,
        int activeSessionLimit,
        int cpus) {

    /** Every setting a PostgreSQL connection may have: the ones above and {@code Hierarchies}' {@code hierarchy.*}. */
    public static final SettingsSpec SPEC = SettingsSpec.of(
                    "url",
                    "username",
                    "password",
                    "pool-size",
                    "batch-size",
                    "statement-timeout-ms",
                    "lock-timeout-ms",
                    "latency-limit-ms",
                    "lock-wait-limit",
                    "active-session-limit",
                    "cpus")
            .withPrefixes("hierarchy.");

    public static final int DEFAULT_BATCH_SIZE = 200;

    public PostgresSettings {
        if (url == null || !url.startsWith("jdbc:postgresql:")) {
            throw new StoreException.Fatal("setting 'url' must be a PostgreSQL JDBC URL such as"
                    + " jdbc:postgresql://localhost:5432/app, got '" + url + "'");
        }
        positive("pool-size", poolSize);
        positive("batch-size", batchSize);
        positive("statement-timeout-ms", statementTimeoutMs);
        positive("lock-timeout-ms", lockTimeoutMs);
        positive("latency-limit-ms", latencyLimitMs);
        positive("lock-wait-limit", lockWaitLimit);
        positive("active-session-limit", activeSessionLimit);
        positive("cpus", cpus);
    }

    public static PostgresSettings from(StoreConnection connection) {
        return new PostgresSettings(
                connection.required("url"),
                connection.required("username"),
                connection.setting("password").orElse(""),
                connection.intSetting("pool-size", 4),
                connection.intSetting("batch-size", DEFAULT_BATCH_SIZE),
                connection.intSetting("statement-timeout-ms", 30_000),
                connection.intSetting("lock-timeout-ms", 2_000),
                connection.intSetting("latency-limit-ms", 100),
                connection.intSetting("lock-wait-limit", 10),
                connection.intSetting("active-session-limit", 16),
                connection.intSetting("cpus", 4));
    }

    public PostgresSettings withBatchSize(int rows) {
        return new PostgresSettings(
                url,
                username,
                password,
                poolSize,
                rows,
                statementTimeoutMs,
                lockTimeoutMs,
                latencyLimitMs,
                lockWaitLimit,
                activeSessionLimit,
                cpus);
    }

    @Override
    public String toString() {
        return "PostgresSettings[url=" + url + ", username=" + username + ", password=***, poolSize=" + poolSize
                + ", batchSize=" + batchSize + ", statementTimeoutMs=" + statementTimeoutMs + ", lockTimeoutMs="
                + lockTimeoutMs + ", latencyLimitMs=" + latencyLimitMs + ", lockWaitLimit=" + lockWaitLimit
                + ", activeSessionLimit=" + activeSessionLimit + ", cpus=" + cpus + "]";
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new StoreException.Fatal("setting '" + name + "' must be >= 1, got " + value);
        }
    }
}
