package io.erasure.deletionlog.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverExecutionProfile;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.session.Request;
import com.datastax.oss.driver.api.core.tracker.RequestTracker;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The log is written and read at LOCAL_QUORUM by default: a record acknowledged by one replica that then dies is a
 * deleted row without its only copy. Observed on the statements the real node executed.
 */
class LogConsistencyIT {

    private static final String MASTER_KEY = "bG9nLWNvbnNpc3RlbmN5LXRlc3QtbWFzdGVyLWtleSE=";
    private static final Map<String, ConsistencyLevel> EXECUTED = new ConcurrentHashMap<>();

    private static CqlSession session;

    @BeforeAll
    static void logTables() {
        CassandraEngine cassandra = LocalEngines.cassandra();
        session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                .withLocalDatacenter(cassandra.localDatacenter())
                .addRequestTracker(new Observed())
                .build();
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + LogSchema.KEYSPACE
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        LogSchema.create(session, Duration.ofDays(30));
    }

    @AfterAll
    static void close() {
        if (session != null) {
            session.close();
        }
    }

    @Test
    void writesReadsKeysAndPurgeChecksRunAtLocalQuorumByDefault() {
        DeletionLog log = DeletionLog.open(
                session, MASTER_KEY, Duration.ofDays(30), JsonMapper.builder().build(), Clock.systemUTC());
        String dataset = "consistency-" + System.nanoTime() % 1_000_000;
        EXECUTED.clear();

        log.writer().write(List.of(record(dataset, 1)));
        log.reader().byKey(dataset, Map.of("id", 1L), true);
        log.purges().purgeKey(dataset, Map.of("id", 1L), "operator", "test");
        log.purges().purgeDataset(dataset, "operator", "test");

        // the driver reports a statement to its trackers on its own threads, possibly after the call returned
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(EXECUTED)
                        .as("the log's statements executed")
                        .containsKeys(
                                "INSERT INTO " + LogSchema.BY_KEY, "SELECT purged_at FROM " + LogSchema.PURGED_DATASETS,
                                "SELECT version, wrapped_key FROM " + LogSchema.DATASET_KEYS,
                                        "DELETE FROM " + LogSchema.BY_KEY));
        assertThat(EXECUTED)
                .as("consistency of each statement of the log")
                .allSatisfy((statement, level) ->
                        assertThat(level).as(statement).isEqualTo(DefaultConsistencyLevel.LOCAL_QUORUM));
    }

    @Test
    void theConsistencyIsConfigurable() {
        DeletionLog log = DeletionLog.open(
                session,
                MASTER_KEY,
                Duration.ofDays(30),
                JsonMapper.builder().build(),
                Clock.systemUTC(),
                DefaultConsistencyLevel.ONE);
        String dataset = "consistency-one-" + System.nanoTime() % 1_000_000;
        EXECUTED.clear();

        log.writer().write(List.of(record(dataset, 2)));

        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(EXECUTED)
                        .containsEntry("INSERT INTO " + LogSchema.BY_KEY, DefaultConsistencyLevel.ONE));
    }

    private static DeletionRecord record(String dataset, long id) {
        Instant deletedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Map<String, Object> key = Map.of("id", id);
        return new DeletionRecord(
                DeletionRecord.recordIdFor("run-c", dataset, key),
                dataset,
                key,
                List.of(ColumnValue.of("id", id), ColumnValue.of("name", "n-" + id)),
                CutoffTimestamp.fromInstant(deletedAt.minusSeconds(30)),
                RunId.of("run-c"),
                null,
                "task-1",
                "batch-1",
                deletedAt,
                null);
    }

    /** Records the consistency level each statement on the log's tables ran at, keyed by its first words. */
    private static final class Observed implements RequestTracker {
        @Override
        public void onSuccess(
                Request request,
                long latencyNanos,
                DriverExecutionProfile profile,
                Node node,
                String requestLogPrefix) {
            if (request instanceof BoundStatement bound) {
                String query = bound.getPreparedStatement().getQuery();
                int table = query.indexOf(LogSchema.KEYSPACE + ".");
                if (table < 0) {
                    return;
                }
                int end = query.indexOf(' ', table);
                String name = query.substring(0, end < 0 ? query.length() : end);
                ConsistencyLevel level = bound.getConsistencyLevel() != null
                        ? bound.getConsistencyLevel()
                        : DefaultConsistencyLevel.valueOf(profile.getString(DefaultDriverOption.REQUEST_CONSISTENCY));
                EXECUTED.put(name, level);
            }
        }

        @Override
        public void close() {}
    }
}
