package io.erasure.store.postgres;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The shared PostgreSQL of the test JVM, adapters opened on it through the ServiceLoader, and direct SQL. */
public final class TestDatabase {

    private TestDatabase() {}

    public static PostgresEngine engine() {
        return LocalEngines.postgres();
    }

    public static StoreConnection connection(Map<String, String> extraSettings) {
        PostgresEngine postgres = engine();
        Map<String, String> settings = new HashMap<>(Map.of(
                "url",
                postgres.jdbcUrl(),
                "username",
                postgres.username(),
                "password",
                postgres.password(),
                "pool-size",
                "3"));
        settings.putAll(extraSettings);
        return new StoreConnection("pg-test", StoreKind.POSTGRES, settings);
    }

    /** An adapter found the way services find it: by type, through META-INF/services. */
    public static StoreAdapter open(Map<String, String> extraSettings) {
        return StoreAdapters.load().open(connection(extraSettings));
    }

    public static Connection jdbc() throws SQLException {
        PostgresEngine postgres = engine();
        Connection connection =
                DriverManager.getConnection(postgres.jdbcUrl(), postgres.username(), postgres.password());
        try (var statement = connection.createStatement()) {
            statement.execute("SET TIME ZONE 'UTC'");
        }
        return connection;
    }

    /** Runs statements (DDL or DML), each with its values bound. */
    public static void execute(String sql, Object... values) {
        try (Connection connection = jdbc();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            statement.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** The first column of every row. */
    public static <T> List<T> column(Class<T> type, String sql, Object... values) {
        try (Connection connection = jdbc();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            List<T> result = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    result.add(rs.getObject(1, type));
                }
            }
            return result;
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    public static long count(String sql, Object... values) {
        return column(Long.class, sql, values).get(0);
    }

    /** A POSTGRES dataset spec on {@code namespace.table} keyed by {@code keyColumn}. */
    public static DatasetSpec spec(String namespace, String table, String keyColumn, ConditionalColumn conditional) {
        String name = (namespace + "-" + table).replace('_', '-');
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-test")
                .namespace(namespace)
                .table(table)
                .keyColumns(KeyColumns.partitionOnly(keyColumn))
                .identifierColumn(keyColumn)
                .identifierSource("customers")
                .conditionalColumn(conditional)
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("storage")
                .build();
    }
}
