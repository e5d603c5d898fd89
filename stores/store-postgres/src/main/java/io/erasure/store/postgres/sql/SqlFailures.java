package io.erasure.store.postgres.sql;

import io.erasure.store.spi.StoreException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * Which PostgreSQL errors are worth a retry. Retriable: lost or refused connections (class 08), serialization
 * failures (40001), deadlocks (40P01), lock timeouts (55P03), statements cancelled by {@code statement_timeout}
 * (57014), a server shutting down or starting (57P01-57P03), insufficient resources such as too many
 * connections (class 53), and the pool's own timeouts. Everything else (undefined table 42P01 or column
 * 42703, bad data, constraint violations, permissions) is {@link StoreException.Fatal}: the same call would
 * fail the same way.
 */
public final class SqlFailures {

    private static final Set<String> RETRIABLE_STATES =
            Set.of("40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03");

    /** Foreign key violation. */
    public static final String FOREIGN_KEY_VIOLATION = "23503";

    private SqlFailures() {}

    public static boolean isRetriable(SQLException e) {
        String state = e.getSQLState();
        if (state != null && (state.startsWith("08") || state.startsWith("53") || RETRIABLE_STATES.contains(state))) {
            return true;
        }
        return e instanceof SQLTransientException || e instanceof SQLRecoverableException;
    }

    /** {@code action} failed: the exception to throw, with the PostgreSQL message and SQLState. */
    public static StoreException translate(String action, SQLException e) {
        String message =
                action + ": " + e.getMessage() + (e.getSQLState() == null ? "" : " (SQLState " + e.getSQLState() + ")");
        return isRetriable(e) ? new StoreException.Retriable(message, e) : new StoreException.Fatal(message, e);
    }
}
