package io.erasure.audit.units;

import static org.awaitility.Awaitility.await;

import io.erasure.audit.join.IdentifierSetLoader;
import io.erasure.audit.testdata.AuditTestKit;
import io.erasure.infra.KafkaEngine;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.AuditRequested;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.identifier.IdentifierSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/** One audit replica, on a units topic of its own, planning a run and working its units on real Kafka and S3. */
final class OneReplica {

    /** What happens between planning (units sent) and the first unit being worked. */
    interface BeforeUnits {
        void run(String runId) throws Exception;
    }

    private OneReplica() {}

    /** Audits a new run of {@code spec}; returns its id once AuditCompleted or AuditFailed arrived. */
    static String audit(AuditTestKit kit, KafkaEngine kafka, DatasetSpec spec, IdentifierSource source)
            throws Exception {
        return audit(kit, kafka, spec, source, run -> {});
    }

    /** As {@link #audit(AuditTestKit, KafkaEngine, DatasetSpec, IdentifierSource)}, running {@code before} first. */
    static String audit(
            AuditTestKit kit, KafkaEngine kafka, DatasetSpec spec, IdentifierSource source, BeforeUnits before)
            throws Exception {
        String topic = "audit-units-e2e-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
        KafkaTemplate<String, String> template = new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer()));
        AuditProgress progress = new AuditProgress(kit.bucket, AuditTestKit.JSON);
        AuditEvents events =
                new AuditEvents(template, topic, AuditTestKit.JSON, Clock.systemUTC(), AuditTestKit.AUDIT_KEY);
        UnitProcessor processor = new UnitProcessor(
                kit.bucket,
                progress,
                new RunContexts(kit.bucket, progress, new IdentifierSetLoader(kit.bucket, 2), 1),
                events,
                UnitProcessor.Observer.NONE);
        UnitWorker worker = new UnitWorker(
                () -> new KafkaConsumer<>(
                        Map.of(
                                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                kafka.bootstrapServers(),
                                ConsumerConfig.GROUP_ID_CONFIG,
                                topic,
                                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                                "false",
                                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                                "earliest"),
                        new StringDeserializer(),
                        new StringDeserializer()),
                topic,
                processor,
                AuditTestKit.JSON,
                2,
                Duration.ofMillis(100));
        String run = AuditTestKit.unique("run");
        new RunCommandsListener(
                        new AuditPlanner(kit.bucket, progress, Clock.systemUTC()), progress, events, AuditTestKit.JSON)
                .onCommand(AuditTestKit.JSON.writeValueAsString(
                        EventEnvelope.startChain(new AuditRequested(spec, source, false), run, Clock.systemUTC())));
        before.run(run);
        Thread thread = new Thread(worker, "e2e-unit-worker");
        thread.start();
        try {
            await().atMost(Duration.ofSeconds(120)).until(() -> !kit.events(run).isEmpty());
            return run;
        } finally {
            worker.stop();
            thread.join(30_000);
        }
    }
}
