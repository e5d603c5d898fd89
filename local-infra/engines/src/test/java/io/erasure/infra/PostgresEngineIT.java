package io.erasure.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalEnginesExtension.class)
class PostgresEngineIT {

    @Test
    void flywayMigratesASchemaAndItIsQueryable(PostgresEngine postgres) throws Exception {
        var result = Flyway.configure()
                .dataSource(postgres.jdbcUrl(), postgres.username(), postgres.password())
                .schemas("engine_test")
                .locations("classpath:db/engine-test")
                .load()
                .migrate();
        assertThat(result.migrationsExecuted).isEqualTo(1);

        try (Connection connection =
                        DriverManager.getConnection(postgres.jdbcUrl(), postgres.username(), postgres.password());
                ResultSet rows = connection
                        .createStatement()
                        .executeQuery("SELECT count(*), max(version()) FROM engine_test.customers"
                                + " WHERE departed_at IS NOT NULL")) {
            rows.next();
            assertThat(rows.getInt(1)).isEqualTo(2);
            assertThat(rows.getString(2)).startsWith("PostgreSQL 14");
        }
    }
}
