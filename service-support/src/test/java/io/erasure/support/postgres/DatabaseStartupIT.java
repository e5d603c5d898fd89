package io.erasure.support.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.infra.EngineFolder;
import io.erasure.infra.PostgresEngine;
import io.erasure.infra.process.FreePorts;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A service whose PostgreSQL is down when it starts (the chaos trials restart PostgreSQL and kill a service at once)
 * migrates its schema and comes up once the database is back, instead of exiting on the first failed connection.
 */
class DatabaseStartupIT {

    @Test
    void aServiceStartedBeforeItsDatabaseWaitsAndThenMigrates() throws Exception {
        PostgresEngine database = new PostgresEngine(FreePorts.next(), EngineFolder.temporary("postgres-late"));
        try {
            database.stop();
            // the database comes back a few seconds after the service began to connect
            CompletableFuture<Void> back = CompletableFuture.runAsync(() -> {
                sleep(3_000);
                database.start();
            });
            runner(database)
                    .withConfiguration(AutoConfigurations.of(DatabaseStartupAutoConfiguration.class))
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(context.getBean(JdbcTemplate.class)
                                        .queryForObject("SELECT count(*) FROM started_late", Integer.class))
                                .isZero();
                    });
            back.get(2, TimeUnit.MINUTES);
        } finally {
            database.close();
        }
    }

    @Test
    void withoutItAServiceStartedBeforeItsDatabaseFails() {
        PostgresEngine database = new PostgresEngine(FreePorts.next(), EngineFolder.temporary("postgres-down"));
        try {
            database.stop();
            runner(database).run(context -> assertThat(context).hasFailed());
        } finally {
            database.close();
        }
    }

    private static ApplicationContextRunner runner(PostgresEngine database) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        JdbcTemplateAutoConfiguration.class,
                        FlywayAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=" + database.jdbcUrl(),
                        "spring.datasource.username=" + PostgresEngine.USER,
                        "spring.datasource.password=" + database.password(),
                        "spring.flyway.locations=classpath:db/startup-it");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
