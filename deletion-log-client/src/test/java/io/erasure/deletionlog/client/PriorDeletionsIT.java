package io.erasure.deletionlog.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
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
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Prior deletions answered from the clear columns of the real log tables, purges honoured. */
class PriorDeletionsIT {

    private static final String MASTER_KEY = "cHJpb3ItZGVsZXRpb25zLXRlc3QtbWFzdGVyLWtleSE=";
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private static CqlSession session;
    private static DeletionLog log;

    @BeforeAll
    static void logTables() {
        CassandraEngine cassandra = LocalEngines.cassandra();
        session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                .withLocalDatacenter(cassandra.localDatacenter())
                .build();
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + LogSchema.KEYSPACE
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        LogSchema.create(session, Duration.ofDays(30));
        log = DeletionLog.open(
                session, MASTER_KEY, Duration.ofDays(30), JsonMapper.builder().build(), Clock.systemUTC());
    }

    @AfterAll
    static void close() {
        if (session != null) {
            session.close();
        }
    }

    @Test
    void theFirstDeletionItsOriginAndTheRecordCountOfEachDeletedKey() {
        String dataset = "prior-" + System.nanoTime() % 1_000_000;
        log.writer()
                .write(List.of(
                        record(dataset, RunId.of("run-late"), null, 1, NOW.minus(Duration.ofHours(1))),
                        record(dataset, RunId.of("run-early"), null, 1, NOW.minus(Duration.ofHours(5))),
                        record(dataset, null, "request-7", 2, NOW.minus(Duration.ofHours(3)))));

        Map<String, PriorDeletions.PriorDeletion> found =
                new PriorDeletions(session).find(dataset, List.of(Map.of("id", 1L), Map.of("id", 2), Map.of("id", 3L)));

        assertThat(found).containsOnlyKeys(KeyHash.of(dataset, Map.of("id", 1)), KeyHash.of(dataset, Map.of("id", 2)));
        assertThat(found.get(KeyHash.of(dataset, Map.of("id", 1))))
                .isEqualTo(new PriorDeletions.PriorDeletion(
                        KeyHash.of(dataset, Map.of("id", 1)), NOW.minus(Duration.ofHours(5)), "run-early", 2));
        assertThat(found.get(KeyHash.of(dataset, Map.of("id", 2))))
                .isEqualTo(new PriorDeletions.PriorDeletion(
                        KeyHash.of(dataset, Map.of("id", 2)), NOW.minus(Duration.ofHours(3)), "request-7", 1));
    }

    /** A record re-published as kept newer (its row was alive with a newer write at read-back) replaces the first. */
    @Test
    void aRecordWhoseRowANewerWriteKeptAliveIsNoPriorDeletion() {
        String dataset = "prior-kept-" + UUID.randomUUID().toString().substring(0, 8);
        DeletionRecord kept = record(dataset, RunId.of("run-kept"), null, 1, NOW.minus(Duration.ofHours(1)));
        DeletionRecord gone = record(dataset, RunId.of("run-kept"), null, 2, NOW.minus(Duration.ofHours(1)));
        log.writer().write(List.of(kept, gone));
        log.writer().write(List.of(kept.asKeptNewer()));

        Map<String, PriorDeletions.PriorDeletion> found =
                new PriorDeletions(session).find(dataset, List.of(Map.of("id", 1), Map.of("id", 2)));

        assertThat(found).containsOnlyKeys(KeyHash.of(dataset, Map.of("id", 2)));
        assertThat(log.reader().byKey(dataset, Map.of("id", 1), true).records())
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.keptNewer()).isTrue();
                    assertThat(r.toDeletionRecord().keptNewer()).isTrue();
                    assertThat(r.columns())
                            .extracting(ColumnValue::name)
                            .containsExactlyElementsOf(kept.columns().stream()
                                    .map(ColumnValue::name)
                                    .toList());
                });
        assertThat(log.reader().byKey(dataset, Map.of("id", 2), true).records())
                .singleElement()
                .satisfies(r -> assertThat(r.keptNewer()).isFalse());
    }

    @Test
    void manyKeysAreReadConcurrentlyAndAnsweredInTheOrderAsked() {
        String dataset = "prior-many-" + System.nanoTime() % 1_000_000;
        log.writer()
                .write(LongStream.rangeClosed(1, 300)
                        .filter(id -> id % 3 == 0)
                        .mapToObj(id -> record(dataset, RunId.of("run-many"), null, id, NOW.minusSeconds(id)))
                        .toList());
        List<Map<String, Object>> keys = LongStream.rangeClosed(1, 300)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();

        Map<String, PriorDeletions.PriorDeletion> found =
                new PriorDeletions(session, LogSchema.KEYSPACE, 8).find(dataset, keys);

        assertThat(found.keySet())
                .containsExactlyElementsOf(LongStream.rangeClosed(1, 300)
                        .filter(id -> id % 3 == 0)
                        .mapToObj(id -> KeyHash.of(dataset, Map.of("id", id)))
                        .toList());
        assertThat(found.values())
                .allSatisfy(p -> assertThat(p.firstDeletedBy()).isEqualTo("run-many"));
    }

    @Test
    void purgedKeysAndDatasetsAreForgotten() {
        String dataset = "prior-purged-" + System.nanoTime() % 1_000_000;
        String other = "prior-kept-" + System.nanoTime() % 1_000_000;
        log.writer()
                .write(List.of(
                        record(dataset, RunId.of("run-a"), null, 1, NOW.minus(Duration.ofHours(2))),
                        record(dataset, RunId.of("run-a"), null, 2, NOW.minus(Duration.ofHours(2))),
                        record(other, RunId.of("run-a"), null, 1, NOW.minus(Duration.ofHours(2))),
                        record(other, RunId.of("run-a"), null, 2, NOW.minus(Duration.ofHours(2)))));
        log.purges().purgeDataset(dataset, "dpo", "legal request");
        log.purges().purgeKey(other, Map.of("id", 1L), "dpo", "legal request");
        // deleted again after the dataset's purge: known once more
        Instant afterPurge = Instant.now().truncatedTo(ChronoUnit.MILLIS).plusSeconds(1);
        assertThat(log.writer()
                        .write(List.of(record(dataset, RunId.of("run-b"), null, 2, afterPurge)))
                        .written())
                .isEqualTo(1);

        PriorDeletions prior = new PriorDeletions(session);
        List<Map<String, Object>> keys = List.of(Map.of("id", 1L), Map.of("id", 2L));

        assertThat(prior.find(dataset, keys)).containsOnlyKeys(KeyHash.of(dataset, Map.of("id", 2)));
        assertThat(prior.find(dataset, keys).values())
                .singleElement()
                .satisfies(p -> assertThat(p.firstDeletedBy()).isEqualTo("run-b"))
                .satisfies(p -> assertThat(p.recordCount()).isEqualTo(1));
        assertThat(prior.find(other, keys)).containsOnlyKeys(KeyHash.of(other, Map.of("id", 2)));
    }

    @Test
    void aBadKeyspaceNameIsRefusedWithTheFix() {
        assertThatThrownBy(() -> new PriorDeletions(session, "deletion-log", 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keyspace")
                .hasMessageContaining("deletion_log");
        assertThat(new PriorDeletions(session).find("prior-none", List.of())).isEmpty();
    }

    private static DeletionRecord record(String dataset, RunId run, String request, long id, Instant deletedAt) {
        Map<String, Object> key = Map.of("id", id);
        String origin = run != null ? run.value() : request;
        return new DeletionRecord(
                DeletionRecord.recordIdFor(origin, dataset, key),
                dataset,
                key,
                List.of(ColumnValue.of("id", id), ColumnValue.of("name", "name-" + id)),
                CutoffTimestamp.fromInstant(deletedAt.minusSeconds(30)),
                run,
                request,
                "task-1",
                "batch-1",
                deletedAt,
                null);
    }
}
