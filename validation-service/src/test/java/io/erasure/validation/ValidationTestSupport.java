package io.erasure.validation;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One context for every validation IT: real PostgreSQL (also the target store, as connection
 * {@code pg-main}), Kafka and S3. Final sets older than a second are re-validated before publishing,
 * so a test can exercise that path without waiting a day.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "erasure.validation.revalidate-after=PT1S",
        "erasure.validation.batch-size=3"})
public abstract class ValidationTestSupport {

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        PostgresEngine postgres = LocalEngines.postgres();
        postgres.springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.kafka().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.s3().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        postgres.storeConnectionProperties("pg-main").forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcTemplate jdbc;
}
