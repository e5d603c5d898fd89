package io.erasure.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.erasure.store.postgres.sql.SqlFailures;
import io.erasure.store.postgres.tree.Hierarchies;
import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapterProvider;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.sql.SQLException;
import java.time.Clock;

/**
 * Opens {@link PostgresAdapter}s (type {@code POSTGRES}) on a HikariCP pool. Settings: see {@link PostgresSettings}
 * ({@code url}, {@code username}, {@code password}, {@code pool-size}, {@code batch-size},
 * {@code statement-timeout-ms}, {@code lock-timeout-ms}, ...) and {@link Hierarchies} ({@code hierarchy.*}).
 * Sessions run in UTC with the configured {@code statement_timeout} and {@code lock_timeout}.
 */
public final class PostgresAdapterProvider implements StoreAdapterProvider {

    @Override
    public String type() {
        return "POSTGRES";
    }

    @Override
    public SettingsSpec settings() {
        return PostgresSettings.SPEC;
    }

    @Override
    public StoreAdapter open(StoreConnection connection) {
        PostgresSettings settings = PostgresSettings.from(connection);
        Hierarchies hierarchies = Hierarchies.fromSettings(connection);
        return new PostgresAdapter(pool(connection.ref(), settings), settings, hierarchies, Clock.systemUTC());
    }

    static HikariDataSource pool(String ref, PostgresSettings settings) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("erasure-" + ref);
        config.setJdbcUrl(settings.url());
        config.setUsername(settings.username());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.poolSize());
        config.setMinimumIdle(1);
        config.setConnectionTimeout(10_000);
        // fail at open, with the reason, rather than on first use
        config.setInitializationFailTimeout(1);
        config.addDataSourceProperty("ApplicationName", "erasure-" + ref);
        config.setConnectionInitSql("SET TIME ZONE 'UTC'; SET statement_timeout = " + settings.statementTimeoutMs()
                + "; SET lock_timeout = " + settings.lockTimeoutMs());
        try {
            return new HikariDataSource(config);
        } catch (HikariPool.PoolInitializationException e) {
            String action = "connect to PostgreSQL for connection '" + ref + "' (" + settings.url() + ")";
            if (e.getCause() instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("28") || state.equals("3D000"))) {
                    throw new StoreException.Fatal(
                            action + ": " + sql.getMessage() + "; check the connection's username,"
                                    + " password and database",
                            sql);
                }
                throw SqlFailures.translate(action, sql);
            }
            throw new StoreException.Retriable(action + ": " + e.getMessage(), e);
        }
    }
}
