package io.erasure.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.store.postgres.tree.Hierarchies;
import io.erasure.store.spi.LoadSignal;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/** The load signal from the database's own statistics: connections, lock waits and round-trip latency. */
class LoadSignalIT {

    private static final Instant MEASURED = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aSessionWaitingOnALockShowsAsLoad() throws Exception {
        TestDatabase.execute("CREATE SCHEMA IF NOT EXISTS load");
        TestDatabase.execute("CREATE TABLE IF NOT EXISTS load.hot (id bigint PRIMARY KEY, n int)");
        TestDatabase.execute("INSERT INTO load.hot VALUES (1, 0) ON CONFLICT DO NOTHING");
        PostgresSettings settings = PostgresSettings.from(
                TestDatabase.connection(Map.of("lock-wait-limit", "1", "latency-limit-ms", "10000")));

        try (PostgresAdapter adapter = new PostgresAdapter(
                PostgresAdapterProvider.pool("pg-load", settings),
                settings,
                Hierarchies.none(),
                Clock.fixed(MEASURED, ZoneOffset.UTC))) {
            LoadSignal idle = adapter.loadSignal();
            assertThat(idle.measuredAt()).isEqualTo(MEASURED);
            assertThat(idle.parts()).containsOnlyKeys("connections", "lock_waits", "latency", "active_sessions", "cpu");
            assertThat(idle.parts().get("lock_waits")).isZero();
            assertThat(idle.parts().get("connections")).isStrictlyBetween(0.0, 1.0);

            try (Connection holder = TestDatabase.jdbc();
                    Connection waiter = TestDatabase.jdbc()) {
                holder.setAutoCommit(false);
                holder.createStatement().execute("UPDATE load.hot SET n = n + 1 WHERE id = 1");
                CompletableFuture<Void> blocked = CompletableFuture.runAsync(() -> {
                    try {
                        waiter.createStatement()
                                .execute("SET statement_timeout = 10000; UPDATE load.hot SET n = n + 1 WHERE id = 1");
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                // the waiter needs a moment to reach the lock
                LoadSignal busy = awaitSignal(adapter, signal -> signal.parts().get("lock_waits") > 0);
                holder.rollback();
                blocked.get(10, TimeUnit.SECONDS);

                assertThat(busy.parts().get("lock_waits")).isEqualTo(1.0);
                assertThat(busy.utilization()).isEqualTo(1.0);
            }
        }
    }

    @Test
    void sessionsRunningStatementsShowAsActiveAndThoseOnACpuAsCpu() throws Exception {
        PostgresSettings settings = PostgresSettings.from(
                TestDatabase.connection(Map.of("active-session-limit", "2", "cpus", "1", "latency-limit-ms", "10000")));
        try (PostgresAdapter adapter = new PostgresAdapter(
                        PostgresAdapterProvider.pool("pg-sessions", settings),
                        settings,
                        Hierarchies.none(),
                        Clock.fixed(MEASURED, ZoneOffset.UTC));
                Connection sleeper = TestDatabase.jdbc();
                Connection spinner = TestDatabase.jdbc()) {
            CompletableFuture<Void> sleeping = runAsync(sleeper, "SELECT pg_sleep(20)");
            LoadSignal oneWaiting =
                    awaitSignal(adapter, signal -> signal.parts().get("active_sessions") >= 0.5);
            assertThat(oneWaiting.parts().get("active_sessions"))
                    .as("a sleeping statement is active")
                    .isEqualTo(0.5);
            assertThat(oneWaiting.parts().get("cpu")).as("but waits, on no CPU").isZero();

            // a statement that only computes: on a CPU the whole time
            CompletableFuture<Void> spinning = runAsync(spinner, "SELECT count(*) FROM generate_series(1, 2000000000)");
            LoadSignal busy = awaitSignal(adapter, signal -> signal.parts().get("cpu") > 0);
            cancel(sleeper, spinner);
            sleeping.handle((ok, e) -> null).get(20, TimeUnit.SECONDS);
            spinning.handle((ok, e) -> null).get(20, TimeUnit.SECONDS);

            assertThat(busy.parts().get("active_sessions")).isEqualTo(1.0);
            assertThat(busy.parts().get("cpu")).isEqualTo(1.0);
            assertThat(busy.utilization()).isEqualTo(1.0);
        }
    }

    private static CompletableFuture<Void> runAsync(Connection connection, String sql) {
        return CompletableFuture.runAsync(() -> {
            try {
                connection.createStatement().execute("SET statement_timeout = 20000");
                connection.createStatement().execute(sql);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void cancel(Connection... connections) throws Exception {
        try (Connection admin = TestDatabase.jdbc()) {
            for (Connection connection : connections) {
                int pid = connection.unwrap(PGConnection.class).getBackendPID();
                admin.createStatement().execute("SELECT pg_cancel_backend(" + pid + ")");
            }
        }
    }

    /** The first load signal {@code seen}: the statement needs a moment to start. */
    private static LoadSignal awaitSignal(PostgresAdapter adapter, Predicate<LoadSignal> seen) {
        return await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(adapter::loadSignal, seen);
    }
}
