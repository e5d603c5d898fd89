package io.erasure.store.postgres.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.store.spi.StoreException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqlFailuresTest {

    @ParameterizedTest
    @ValueSource(strings = {"08006", "08001", "40001", "40P01", "55P03", "57014", "57P01", "53300"})
    void transientStatesAreRetriable(String state) {
        assertThat(SqlFailures.translate("delete", new SQLException("boom", state)))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessage("delete: boom (SQLState " + state + ")");
    }

    @ParameterizedTest
    @ValueSource(strings = {"42P01", "42703", "42704", "23505", "22P02", "42501"})
    void schemaDataAndPermissionErrorsAreFatal(String state) {
        assertThat(SqlFailures.translate("delete", new SQLException("boom", state)))
                .isInstanceOf(StoreException.Fatal.class);
    }

    @Test
    void aPoolTimeoutIsRetriable() {
        assertThat(SqlFailures.translate("read", new SQLTransientConnectionException("pool exhausted")))
                .isInstanceOf(StoreException.Retriable.class);
    }
}
