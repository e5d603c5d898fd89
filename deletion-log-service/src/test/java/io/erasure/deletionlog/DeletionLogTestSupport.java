package io.erasure.deletionlog;

import io.erasure.infra.LocalEngines;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** One Spring context (one consumer of the log group) for every deletion-log IT, on real Kafka and Cassandra. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class DeletionLogTestSupport {

    private static final AtomicInteger NAMES = new AtomicInteger();
    private static KafkaProducer<String, String> producer;

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        LocalEngines.kafka().springProperties().forEach((name, value) -> registry.add(name, () -> value));
        LocalEngines.cassandra().springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected JsonMapper json;

    @AfterAll
    static void closeProducer() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
    }

    protected RestTestClient as(String user) {
        return RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .defaultHeaders(h -> h.setBasicAuth(user, user))
                // what every client's writes with Basic credentials carry (service-support's CrossSiteWriteGuard)
                .defaultHeader("X-Requested-By", "tests")
                .build();
    }

    protected JsonNode get(String user, String uri, Object... variables) {
        String body = as(user).get()
                .uri(uri, variables)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        return json.readTree(body);
    }

    protected static String unique(String prefix) {
        return prefix + "-" + NAMES.incrementAndGet() + "-" + System.nanoTime() % 100_000;
    }

    /** A record of one deleted row of {@code dataset}, as the deletion service would publish it. */
    protected static DeletionRecord record(String dataset, String runId, long id, Instant deletedAt) {
        Map<String, Object> key = Map.of("id", id);
        long written = CutoffTimestamp.toMicros(deletedAt) - 60_000_000L;
        return new DeletionRecord(
                DeletionRecord.recordIdFor(runId, dataset, key),
                dataset,
                key,
                List.of(
                        ColumnValue.of("id", id),
                        new ColumnValue("name", "name-" + id, written, null),
                        new ColumnValue("email", id + "@example.com", written, 86_400)),
                CutoffTimestamp.fromInstant(deletedAt.minusSeconds(30)),
                RunId.of(runId),
                null,
                "task-1",
                "batch-1",
                deletedAt,
                null);
    }

    /** Publishes records as the deletion service does: keyed by dataset + primary key, acknowledged by all replicas. */
    protected void publish(List<DeletionRecord> records) {
        for (DeletionRecord record : records) {
            publish(Topics.logKey(record), json.writeValueAsString(record));
        }
    }

    /** Publishes one message as given, e.g. a record in the form an older deletion service wrote. */
    protected static void publish(String key, String value) {
        if (producer == null) {
            producer = new KafkaProducer<>(
                    Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            LocalEngines.kafka().bootstrapServers(),
                            ProducerConfig.ACKS_CONFIG,
                            "all",
                            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                            true),
                    new StringSerializer(),
                    new StringSerializer());
        }
        try {
            producer.send(new ProducerRecord<>(Topics.DELETION_LOG, key, value)).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("publishing deletion records failed", e);
        }
    }

    /** Polls {@code value} until {@code done} holds (ingestion is asynchronous), at most 60 s. */
    protected static <T> T await(Supplier<T> value, Predicate<T> done) {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(value::get, done::test);
    }
}
