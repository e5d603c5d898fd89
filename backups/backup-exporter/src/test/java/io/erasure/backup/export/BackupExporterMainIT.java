package io.erasure.backup.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.backup.export.snapshot.ExportResult;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import io.erasure.infra.S3Engine;
import io.erasure.model.contract.S3Layout;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The command line a scheduler runs, against real PostgreSQL and S3. */
class BackupExporterMainIT {

    @Test
    void exportsATableFromTheCommandLine() throws Exception {
        PostgresEngine postgres = LocalEngines.postgres();
        S3Engine s3 = LocalEngines.s3();
        try (Connection connection =
                        DriverManager.getConnection(postgres.jdbcUrl(), postgres.username(), postgres.password());
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA IF NOT EXISTS cli_test");
            statement.execute("DROP TABLE IF EXISTS cli_test.customers");
            statement.execute(
                    "CREATE TABLE cli_test.customers (customer_id bigint PRIMARY KEY, deleted_at timestamptz)");
            statement.execute("INSERT INTO cli_test.customers SELECT g, CASE WHEN g % 2 = 0 THEN now() END"
                    + " FROM generate_series(1, 25) g");
        }
        String dataset = "customers-" + UUID.randomUUID().toString().substring(0, 8);

        ExportResult result = BackupExporterMain.run(BackupExporterMain.parse(new String[] {
            "--store=postgres",
            "--jdbc-url=" + postgres.jdbcUrl(),
            "--user=" + postgres.username(),
            "--password=" + postgres.password(),
            "--schema=cli_test",
            "--table=customers",
            "--identifier-column=customer_id",
            "--dataset=" + dataset,
            "--rows-per-part=10",
            "--rows-per-second=1000",
            "--s3-endpoint=" + s3.endpoint(),
            "--s3-region=" + s3.region(),
            "--s3-access-key=" + s3.accessKey(),
            "--s3-secret-key=" + s3.secretKey(),
            "--s3-bucket=" + s3.bucket(),
            "--s3-path-style=true"
        }));

        assertThat(result.rows()).isEqualTo(25);
        assertThat(result.parts()).isEqualTo(3);
        assertThat(result.manifestKey())
                .isEqualTo("backups/" + dataset + "/" + result.snapshot() + "/" + S3Layout.MANIFEST);
        assertThat(ExporterTestKit.readAll(result.manifestKey())).hasSize(25);
    }

    @Test
    void unknownOptionsAreRefusedWithTheListOfKnownOnes() {
        assertThatThrownBy(() -> BackupExporterMain.parse(new String[] {"--tabel=x"}))
                .hasMessageStartingWith(
                        "unknown argument '--tabel=x'; options are --name=value with name one of [consistency,");
    }
}
