package io.erasure.validation;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.deletionlog.client.DeletionLog;
import io.erasure.deletionlog.client.LogSchema;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.event.DeletionAuthorized;
import io.erasure.model.event.DeletionAuthorized.Basis;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.Authorization.Kind;
import io.erasure.model.trust.SigningKey;
import io.erasure.support.trust.SpecDigest;
import io.erasure.validation.finalset.RunFiles;
import io.erasure.validation.finalset.ValidationReport;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * One context for every validation IT: real PostgreSQL (also a target store, as connection
 * {@code pg-main}), Cassandra (target store {@code cass-main}, and the deletion log that resurrection
 * detection reads), Kafka and S3. Final sets older than a second are re-validated before publishing,
 * so a test can exercise that path without waiting a day.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"erasure.validation.revalidate-after=PT1S", "erasure.validation.batch-size=3"})
public abstract class ValidationTestSupport {

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        PostgresEngine postgres = LocalEngines.postgres();
        postgres.springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.kafka().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.s3().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        postgres.storeConnectionProperties("pg-main").forEach((name, value) -> registry.add(name, () -> value));
        CassandraEngine cassandra = LocalEngines.cassandra();
        cassandra.storeConnectionProperties("cass-main").forEach((name, value) -> registry.add(name, () -> value));
        registry.add("erasure.validation.deletion-log.contact-points", cassandra::contactPoint);
        registry.add("erasure.validation.deletion-log.local-datacenter", cassandra::localDatacenter);
        deletionLog(); // its tables exist before any validation reads them, as deletion-log-service creates them
    }

    /** Test-only master key of the deletion log's payloads (32 bytes, base64). */
    private static final String LOG_MASTER_KEY = "dmFsaWRhdGlvbi10ZXN0cy1sb2ctbWFzdGVyLWtleSE=";

    private static CqlSession cassandraSession;
    private static DeletionLog deletionLog;

    /** A session on the local Cassandra node for fixtures, open until the test JVM exits. */
    protected static synchronized CqlSession cassandra() {
        if (cassandraSession == null) {
            CassandraEngine engine = LocalEngines.cassandra();
            cassandraSession = CqlSession.builder()
                    .addContactPoint(new InetSocketAddress(engine.host(), engine.port()))
                    .withLocalDatacenter(engine.localDatacenter())
                    .build();
            Runtime.getRuntime().addShutdownHook(new Thread(cassandraSession::close));
        }
        return cassandraSession;
    }

    /**
     * The deletion log as deletion-log-service stores it (its keyspace and tables, records written by
     * {@code LogWriter} with a test master key), for writing the records of earlier deletions.
     */
    protected static synchronized DeletionLog deletionLog() {
        if (deletionLog == null) {
            CqlSession session = cassandra();
            session.execute("CREATE KEYSPACE IF NOT EXISTS " + LogSchema.KEYSPACE
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            LogSchema.create(session, Duration.ofDays(30));
            deletionLog = DeletionLog.open(
                    session,
                    LOG_MASTER_KEY,
                    Duration.ofDays(30),
                    JsonMapper.builder().build(),
                    Clock.systemUTC());
        }
        return deletionLog;
    }

    /** The control plane's LOCAL ONLY key of its application.yml: it signs what the tests authorize. */
    private static final SigningKey CONTROL_PLANE =
            SigningKey.of("control-plane-local", "MC4CAQAwBQYDK2VwBCIEIFP9YJnCLRIGnHdmcZEWO06/uijq2IzHGEgltoendJem");

    /**
     * The DeletionAuthorized the control plane sends for a validated run: signed over the run's frozen spec, cut-off
     * and the final-set digest validation reported (read back from its report).
     */
    protected DeletionAuthorized authorized(String runId, Basis basis, String by) {
        ValidationReport report = runFiles.readJson(S3Layout.reportKey(RunId.of(runId)), ValidationReport.class)
                .orElseThrow();
        Authorization signed = CONTROL_PLANE.sign(Authorization.unsigned(
                Kind.RUN,
                runId,
                report.spec().name(),
                SpecDigest.of(report.spec()),
                report.finalSetDigest(),
                report.cutoffMicros(),
                basis.name(),
                by,
                Instant.now()));
        return new DeletionAuthorized(report.spec().name(), basis, by, signed);
    }

    @Autowired
    private RunFiles runFiles;

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcTemplate jdbc;
}
