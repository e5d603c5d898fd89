package io.erasure.audit.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.audit.join.IdentifierSetLoader;
import io.erasure.audit.testdata.AuditTestKit;
import io.erasure.audit.testdata.GeneratedData;
import io.erasure.backup.format.BackupRow;
import io.erasure.infra.KafkaEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditRequested;
import io.erasure.model.event.AuditUnit;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.run.RunId;
import io.erasure.support.trust.SpecDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Two replicas share one audit through a consumer group; one dies right after storing the
 * candidate file of the first unit it took, before marking the unit done or committing its offset.
 * The other is handed the dead replica's partition, redoes that unit, and the audit completes once
 * with the same files and counts as an audit nobody interrupted.
 */
class ReplicaKilledIT {

    static final KafkaEngine KAFKA = LocalEngines.kafka();
    static final AuditTestKit KIT = new AuditTestKit(LocalEngines.s3(), KAFKA);
    static final String UNITS_TOPIC = "audit-units-replica-test-" + UUID.randomUUID();
    static final String GROUP = "audit-units-replica-test-" + UUID.randomUUID();
    static final KafkaTemplate<String, String> KAFKA_TEMPLATE = new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(
            Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    KAFKA.bootstrapServers(),
                    ProducerConfig.ACKS_CONFIG,
                    "all"),
            new StringSerializer(),
            new StringSerializer()));

    /** What a replica stored, as "runId#unit". */
    static final class Recorder implements UnitProcessor.Observer {
        final List<String> stored = new CopyOnWriteArrayList<>();
        final boolean dieOnFirst;

        Recorder(boolean dieOnFirst) {
            this.dieOnFirst = dieOnFirst;
        }

        @Override
        public void candidatesStored(AuditUnit unit) {
            stored.add(unit.partIndex() + "");
            if (dieOnFirst && stored.size() == 1) {
                throw new ReplicaKilled();
            }
        }
    }

    /** The replica's abrupt end: an Error no handler catches, so its worker thread dies mid-unit. */
    static final class ReplicaKilled extends Error {
        ReplicaKilled() {
            super("replica killed after storing a unit's candidates", null, false, false);
        }
    }

    record Replica(UnitWorker worker, Thread thread, Recorder recorder, List<Throwable> death) {}

    final AuditProgress progress = new AuditProgress(KIT.bucket, AuditTestKit.JSON);
    final AuditEvents events =
            new AuditEvents(KAFKA_TEMPLATE, UNITS_TOPIC, AuditTestKit.JSON, Clock.systemUTC(), AuditTestKit.AUDIT_KEY);
    final RunCommandsListener commands = new RunCommandsListener(
            new AuditPlanner(KIT.bucket, progress, Clock.systemUTC()), progress, events, AuditTestKit.JSON);

    @AfterAll
    static void close() {
        KIT.close();
    }

    Replica replica(String name, Recorder recorder) {
        UnitProcessor processor = new UnitProcessor(
                KIT.bucket,
                progress,
                new RunContexts(KIT.bucket, progress, new IdentifierSetLoader(KIT.bucket, 2), 1),
                events,
                recorder);
        UnitWorker worker = new UnitWorker(
                () -> consumer(name), UNITS_TOPIC, processor, AuditTestKit.JSON, 3, Duration.ofMillis(100));
        Thread thread = new Thread(worker, name);
        List<Throwable> death = new CopyOnWriteArrayList<>();
        // the replica's own handler: its death is expected here, not a failure of the test thread
        thread.setUncaughtExceptionHandler((t, e) -> death.add(e));
        thread.start();
        return new Replica(worker, thread, recorder, death);
    }

    static Consumer<String, String> consumer(String name) {
        return new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        KAFKA.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        GROUP,
                        ConsumerConfig.CLIENT_ID_CONFIG,
                        name,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        "false",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        "1",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer());
    }

    @Test
    void theSurvivorRedoesTheKilledReplicasUnitAndTheAuditCompletesOnceWithIdenticalOutputs() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(UNITS_TOPIC, 2, (short) 1)))
                    .all()
                    .get();
            String dataset = AuditTestKit.unique("orders");
            String sourceName = AuditTestKit.unique("customers");
            IdentifierSource source = AuditTestKit.source(sourceName, BackupFormat.JSONL_GZIP, Duration.ZERO);
            DatasetSpec spec = AuditTestKit.spec(
                    dataset, GeneratedData.ORDERS.keyColumns(), "customer_id", sourceName, BackupFormat.JSONL_GZIP);
            Map<Object, String> deletedAt = new LinkedHashMap<>();
            Set<Long> deletable = new HashSet<>();
            for (long c = 1; c <= 100; c += 2) {
                deletedAt.put(c, Instant.now().minus(Duration.ofDays(9)).toString());
                deletable.add(c);
            }
            // the identifier backup's cut-off, not the clock, sets the threshold: both runs see the same identifiers
            GeneratedData.writeSnapshot(
                    KIT.bucket,
                    sourceName,
                    source.backup(),
                    "20240131T010000Z",
                    GeneratedData.customers("bigint"),
                    CutoffTimestamp.fromInstant(Instant.now().minus(Duration.ofDays(8)))
                            .micros(),
                    GeneratedData.customers(deletedAt),
                    2);
            List<BackupRow> rows = GeneratedData.orders(12_000, 100, 31);
            GeneratedData.writeSnapshot(
                    KIT.bucket,
                    dataset,
                    spec.backup(),
                    "20240131T020000Z",
                    GeneratedData.ORDERS,
                    GeneratedData.T0_MICROS,
                    rows,
                    6);
            List<Candidate> expected = GeneratedData.expectedCandidates(rows, GeneratedData.ORDERS, deletable);

            // an audit nobody interrupts, for reference
            Replica lone = replica("replica-lone", new Recorder(false));
            String reference = request(spec, source);
            AuditCompleted referenceOutcome = awaitCompleted(reference);
            lone.worker().stop();
            lone.thread().join(30_000);

            Replica doomed = replica("replica-doomed", new Recorder(true));
            Replica survivor = replica("replica-survivor", new Recorder(false));
            // both replicas must hold a partition before units arrive, or the survivor could take them all
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                var group =
                        admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP);
                return group.members().size() == 2
                        && group.members().stream()
                                .allMatch(m -> !m.assignment().topicPartitions().isEmpty());
            });
            String run = request(spec, source);

            AuditCompleted outcome = awaitCompleted(run);
            await().atMost(Duration.ofSeconds(30)).until(() -> !doomed.thread().isAlive());
            assertThat(doomed.death()).singleElement().isInstanceOf(ReplicaKilled.class);
            assertThat(survivor.death()).isEmpty();
            String killedUnit = doomed.recorder().stored.get(0);
            assertThat(doomed.recorder().stored).containsExactly(killedUnit);
            // the survivor joined every unit: its own partition's and then the dead replica's, the killed unit included
            assertThat(survivor.recorder().stored).containsExactlyInAnyOrder("0", "1", "2", "3", "4", "5");

            assertThat(outcome.rowsScanned()).isEqualTo(12_000);
            assertThat(outcome.candidateCount()).isEqualTo(expected.size());
            assertThat(outcome)
                    .isEqualTo(new AuditCompleted(
                            referenceOutcome.dataset(),
                            referenceOutcome.snapshot(),
                            referenceOutcome.cutoff(),
                            referenceOutcome.rowsScanned(),
                            referenceOutcome.candidateCount(),
                            S3Layout.candidatesPrefix(RunId.of(run)),
                            SpecDigest.of(spec)));
            assertThat(KIT.events(run)).extracting(EventEnvelope::eventType).containsExactly("AuditCompleted");
            assertThat(rendered(KIT.candidates(run))).containsExactlyElementsOf(rendered(expected));
            for (int unit = 0; unit < 6; unit++) {
                assertThat(KIT.bytes(S3Layout.candidatesPartKey(RunId.of(run), unit)))
                        .as("candidate file of unit " + unit)
                        .isEqualTo(KIT.bytes(S3Layout.candidatesPartKey(RunId.of(reference), unit)));
            }
            assertThat(progress.finishedUnits(run)).hasSize(6);

            survivor.worker().stop();
            survivor.thread().join(30_000);
        }
    }

    private String request(DatasetSpec spec, IdentifierSource source) {
        String runId = AuditTestKit.unique("run");
        EventEnvelope command =
                EventEnvelope.startChain(new AuditRequested(spec, source, false), runId, Clock.systemUTC());
        commands.onCommand(AuditTestKit.JSON.writeValueAsString(command));
        return runId;
    }

    private static AuditCompleted awaitCompleted(String runId) {
        await().atMost(Duration.ofSeconds(120)).until(() -> !KIT.events(runId).isEmpty());
        return KIT.events(runId).get(0).payloadAs(AuditCompleted.class);
    }

    private static List<String> rendered(List<Candidate> candidates) {
        return candidates.stream()
                .map(c -> CanonicalKey.render(c.key()) + " " + c.identifier() + " " + c.writeTimeMicros())
                .toList();
    }
}
