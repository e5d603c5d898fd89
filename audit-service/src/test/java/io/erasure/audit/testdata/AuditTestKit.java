package io.erasure.audit.testdata;

import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.S3Clients;
import io.erasure.infra.KafkaEngine;
import io.erasure.infra.S3Engine;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.EventSeals;
import io.erasure.model.trust.SigningKey;
import io.erasure.model.trust.TrustedKeys;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import tools.jackson.databind.json.JsonMapper;

/** Real S3 and Kafka from the test JVM's engines: send commands, collect run events, read candidate files. */
public final class AuditTestKit implements AutoCloseable {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    /** audit-service's LOCAL ONLY key (application-local.yml), for the services a test wires by hand. */
    public static final SigningKey AUDIT_KEY =
            SigningKey.of("audit-local", "MC4CAQAwBQYDK2VwBCIEIKjzIel+FXKkm+1gE0XvcqhznICc55fP7rSK5NxLL4UH");

    /** Its public half as the control plane trusts it (application-local.yml there): for audit results only. */
    private static final TrustedKeys CONTROL_PLANE_TRUST = TrustedKeys.of(Map.of(
            "audit-local",
            new TrustedKeys.Trusted(
                    TrustedKeys.publicKey(
                            "audit-local", "MCowBQYDK2VwAyEAWXYEHR5eIYyy1fQRCz4kFZ2qpA7F4UAv5305kZ4QT+E="),
                    EnumSet.of(Authorization.Kind.AUDIT_RESULT))));

    /**
     * Why the control plane would refuse {@code event} (its seal checked as RunEventGate does); empty when it applies.
     */
    public static Optional<EventSeals.Refusal> refusal(EventEnvelope event) {
        return EventSeals.refusal(event, CONTROL_PLANE_TRUST);
    }

    public final S3Client s3;
    public final BackupBucket bucket;
    private final KafkaProducer<String, String> producer;
    private final List<EventEnvelope> events = new CopyOnWriteArrayList<>();
    private final Thread collector;
    private volatile boolean running = true;

    public AuditTestKit(S3Engine s3Engine, KafkaEngine kafka) {
        this.s3 = S3Clients.create(
                s3Engine.endpoint(), s3Engine.region(), s3Engine.accessKey(), s3Engine.secretKey(), true);
        this.bucket = new BackupBucket(s3, s3Engine.bucket());
        this.producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all"),
                new StringSerializer(),
                new StringSerializer());
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "audit-test-events-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer());
        consumer.subscribe(List.of(Topics.RUN_EVENTS));
        this.collector = new Thread(
                () -> {
                    try (consumer) {
                        while (running) {
                            consumer.poll(Duration.ofMillis(200))
                                    .forEach(r -> events.add(JSON.readValue(r.value(), EventEnvelope.class)));
                        }
                    }
                },
                "run-events-collector");
        collector.setDaemon(true);
        collector.start();
    }

    public static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public static DatasetSpec spec(
            String name, KeyColumns key, String identifierColumn, String source, BackupFormat format) {
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cassandra-main")
                .namespace("shop")
                .table("t_" + name.replace('-', '_'))
                .keyColumns(key)
                .identifierColumn(identifierColumn)
                .identifierSource(source)
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name, format))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("audit-tests")
                .build();
    }

    public static IdentifierSource source(String name, BackupFormat format, Duration grace) {
        return new IdentifierSource(
                name,
                StoreKind.POSTGRES,
                "pg-main",
                "public",
                "customers",
                "customer_id",
                "deleted_at",
                S3Layout.defaultBackupLocation(name, format),
                grace);
    }

    public void sendCommand(String runId, EventPayload payload) {
        EventEnvelope command = EventEnvelope.startChain(payload, runId, Clock.systemUTC());
        try {
            producer.send(new ProducerRecord<>(
                            Topics.RUN_COMMANDS, Topics.runKey(RunId.of(runId)), JSON.writeValueAsString(command)))
                    .get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The run events received so far for {@code runId}, in arrival order. */
    public List<EventEnvelope> events(String runId) {
        return events.stream().filter(e -> runId.equals(e.runId())).toList();
    }

    /** Candidate part keys of a run, in name order. */
    public List<String> candidateParts(String runId) {
        return s3
                .listObjectsV2Paginator(
                        r -> r.bucket(bucket.bucket()).prefix(S3Layout.candidatesPrefix(RunId.of(runId))))
                .contents()
                .stream()
                .map(S3Object::key)
                .sorted()
                .toList();
    }

    public byte[] bytes(String key) {
        return s3.getObjectAsBytes(r -> r.bucket(bucket.bucket()).key(key)).asByteArray();
    }

    /** Every candidate of a run, part by part, as validation reads them. */
    public List<Candidate> candidates(String runId) throws IOException {
        List<Candidate> all = new ArrayList<>();
        for (String key : candidateParts(runId)) {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                    new GZIPInputStream(
                            s3.getObject(r -> r.bucket(bucket.bucket()).key(key))),
                    StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    all.add(JSON.readValue(line, Candidate.class));
                }
            }
        }
        return all;
    }

    @Override
    public void close() {
        running = false;
        producer.close();
        s3.close();
    }
}
