package io.erasure.deletion.bench;

import ch.qos.logback.classic.Level;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.zaxxer.hikari.HikariDataSource;
import io.erasure.deletion.DeletionProperties;
import io.erasure.deletion.LogIngestStandIn;
import io.erasure.deletion.control.ControlCatchUp;
import io.erasure.deletion.control.ControlState;
import io.erasure.deletion.control.ControlStore;
import io.erasure.deletion.execution.BatchEvents;
import io.erasure.deletion.execution.BatchExecutor;
import io.erasure.deletion.execution.DeletionGate;
import io.erasure.deletion.execution.DeletionMetrics;
import io.erasure.deletion.execution.ProcessedBatches;
import io.erasure.deletion.execution.StepListener;
import io.erasure.deletion.execution.StoreCalls;
import io.erasure.deletion.fanout.CopyFanOut;
import io.erasure.deletion.log.LogIngestionLag;
import io.erasure.deletion.log.WriteAheadDeletionLog;
import io.erasure.deletion.throttle.AdaptiveThrottle;
import io.erasure.deletion.throttle.ShardOwnership;
import io.erasure.deletion.throttle.SpreadPacer;
import io.erasure.deletionlog.client.DatasetKeys;
import io.erasure.deletionlog.client.FrozenSpecs;
import io.erasure.deletionlog.client.LogSchema;
import io.erasure.deletionlog.client.PayloadCipher;
import io.erasure.deletionlog.client.SealedRecords;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.EventPayload;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.trust.SigningKey;
import io.erasure.model.trust.TrustedKeys;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreCapabilities;
import io.erasure.support.json.PlatformJson;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.stores.StoreConnectionsProperties;
import io.erasure.support.tasks.DeletionTaskPublisher;
import io.erasure.support.trust.TaskSigner;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.flywaydb.core.Flyway;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where one deletion batch's time goes, step by step: the real {@link BatchExecutor} wired as the service wires it
 * (its PostgreSQL schema migrated by Flyway, the log topic with the service's producer settings read from its
 * {@code application.yml}, records sealed with a data key from the deletion log's Cassandra, the log-ingest gate and
 * the kill switches read from Kafka), deleting {@code bench.batches} batches of {@code bench.keys} keys from a
 * PostgreSQL table, unthrottled (a cap far above what one thread deletes). Each collaborator call is timed where the
 * executor makes it; the table prints, per step, the median milliseconds per batch and the share of the batch's median,
 * first for a dataset without copies, then with a table copy (keyed by the source key), then with a cache keyed by a
 * non-key column (whose values are remembered before the delete); the copy tasks are published, not executed.
 * {@code bench.linger-ms} overrides the producer's {@code linger.ms} from the service's configuration;
 * {@code bench.dump=true} also prints each step of the first batches.
 * "other" is the executor's own CPU: key sets, records, sealing is part of the log append. Not a test: it asserts
 * nothing.
 *
 * <p>From the repository root:
 * <pre>
 * ./mvnw -B -q -o -pl deletion-service test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
 * cd deletion-service &amp;&amp; java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" \
 *   [-Dbench.batches=200 -Dbench.keys=500 -Dbench.warmup=20 -Dbench.copy-batches=100 -Dbench.linger-ms=5] \
 *   io.erasure.deletion.bench.BatchStepsBenchmark
 * </pre>
 * The engines and the benchmark share the machine (2 cores here): compare figures within one run.
 */
public final class BatchStepsBenchmark {

    private static final int BATCHES = Integer.getInteger("bench.batches", 200);
    private static final int KEYS = Integer.getInteger("bench.keys", 500);
    private static final int WARMUP = Integer.getInteger("bench.warmup", 20);
    private static final int COPY_BATCHES = Integer.getInteger("bench.copy-batches", 100);
    private static final String STORE = "bench-pg";
    private static final String SCHEMA = "batch_bench";
    private static final String LOG_APPEND = "log append (seal, Kafka acks)";
    private static final String REPORT = "report (Kafka ack)";

    private BatchStepsBenchmark() {}

    public static void main(String[] args) throws Exception {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(Level.WARN);
        PostgresEngine postgres = LocalEngines.postgres();
        String bootstrap = LocalEngines.kafka().bootstrapServers();
        CassandraEngine cassandra = LocalEngines.cassandra();
        Properties service = serviceConfiguration();
        JsonMapper json = PlatformJson.mapper();
        Clock clock = Clock.systemUTC();

        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(postgres.jdbcUrl());
        dataSource.setUsername(postgres.username());
        dataSource.setPassword(postgres.password());
        dataSource.setSchema("deletion");
        Flyway.configure().dataSource(dataSource).schemas("deletion").load().migrate();
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);

        Map<String, Object> producer = new HashMap<>();
        producer.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producer.put(ProducerConfig.ACKS_CONFIG, service.getProperty("spring.kafka.producer.acks", "1"));
        String producerProperties = "spring.kafka.producer.properties";
        // YAML values keep their types (true, 0): not in stringPropertyNames()
        service.forEach((name, value) -> {
            if (name.toString().startsWith(producerProperties)) {
                producer.put(
                        name.toString().substring(producerProperties.length()).replaceAll("^\\.?\\[|]$", ""),
                        value.toString());
            }
        });
        if (System.getProperty("bench.linger-ms") != null) {
            producer.put(ProducerConfig.LINGER_MS_CONFIG, System.getProperty("bench.linger-ms"));
        }
        KafkaTemplate<String, String> kafka = new KafkaTemplate<>(
                new DefaultKafkaProducerFactory<>(producer, new StringSerializer(), new StringSerializer()));

        Map<String, Object> admin = Map.of("bootstrap.servers", bootstrap);
        try (Admin kafkaAdmin = Admin.create(admin);
                CqlSession keysSession = CqlSession.builder()
                        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                                .withStringList(DefaultDriverOption.CONTACT_POINTS, List.of(cassandra.contactPoint()))
                                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_QUORUM")
                                .build())
                        .withLocalDatacenter(cassandra.localDatacenter())
                        .build();
                LogIngestStandIn.Ingest ingest = new LogIngestStandIn.Ingest(bootstrap);
                S3Client s3 = S3Client.builder()
                        .region(Region.US_EAST_1)
                        .endpointOverride(URI.create("http://127.0.0.1:9"))
                        .credentialsProvider(
                                StaticCredentialsProvider.create(AwsBasicCredentials.create("unused", "unused")))
                        .build()) {
            createTopics(kafkaAdmin);
            keysSession.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + LogSchema.KEYSPACE
                            + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
                    .setTimeout(Duration.ofSeconds(30)));
            LogSchema.create(keysSession, Duration.ofDays(30));
            DatasetKeys keys = new DatasetKeys(
                    keysSession,
                    PayloadCipher.masterKey(service.getProperty("erasure.deletion-log.master-key")),
                    clock);
            SealedRecords sealed = new SealedRecords(keys, json);

            // no signal is trusted: the benchmark's topic holds none
            ControlState control = new ControlState(
                    json, TrustedKeys.of(Map.of()), new SimpleMeterRegistry(), new ControlStore(jdbc, json));
            ControlCatchUp catchUp = new ControlCatchUp(
                    control,
                    new DefaultKafkaConsumerFactory<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap)),
                    () -> {});
            catchUp.start();
            while (!control.caughtUp()) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
            catchUp.stop();

            DeletionProperties config = new DeletionProperties(
                    0.3,
                    10_000_000,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null);
            Map<String, Object> reader = new HashMap<>(admin);
            reader.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            reader.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            Timings timings = new Timings();
            LogIngestionLag lag = new TimedLag(
                    timings,
                    kafkaAdmin,
                    () -> new KafkaConsumer<>(reader, new StringDeserializer(), new StringDeserializer()),
                    config);
            ShardOwnership ownership = new ShardOwnership();
            ProcessedBatches processed = new TimedProcessedBatches(timings, jdbc);
            StoreAdapterPool stores = new TimedStores(
                    timings,
                    new StoreAdapterPool(
                            StoreAdapters.load(),
                            new StoreConnectionsProperties(Map.of(
                                    STORE,
                                    new StoreConnectionsProperties.Connection(
                                            StoreKind.POSTGRES,
                                            Map.of(
                                                    "url",
                                                    postgres.jdbcUrl(),
                                                    "username",
                                                    postgres.username(),
                                                    "password",
                                                    postgres.password()))))));
            BatchExecutor executor = new BatchExecutor(
                    stores,
                    new TimedLog(
                            timings,
                            kafka,
                            s3,
                            json,
                            config,
                            () -> sealed,
                            () -> new FrozenSpecs(keysSession, json, Duration.ofDays(30))),
                    new DeletionGate(control, lag, config.killSwitchPoll(), config.pauseHold(), clock),
                    new TimedThrottle(timings, config, ownership),
                    new SpreadPacer(processed, ownership, clock, SpreadPacer.Sleeper.THREAD),
                    processed,
                    new TimedFanOut(
                            timings, new DeletionTaskPublisher(kafka, json, signer(service, clock)), json, jdbc),
                    new TimedEvents(timings, kafka, json, clock),
                    new StoreCalls(
                            config.retryAttempts(),
                            Duration.ofMillis(200),
                            Duration.ofSeconds(20),
                            new SimpleMeterRegistry()),
                    new DeletionMetrics(new SimpleMeterRegistry()),
                    StepListener.NONE,
                    clock);

            int rows = (WARMUP + BATCHES + 2 * COPY_BATCHES) * KEYS;
            DatasetSpec plain = load(jdbc, rows);
            // the copies' tasks are published, not executed: the cache's store need not run
            Map<String, DatasetSpec> datasets = new LinkedHashMap<>();
            datasets.put("no copies", plain);
            datasets.put(
                    "table copy",
                    plain.toBuilder()
                            .copies(List.of(new DatasetCopy(
                                    "profiles-copy",
                                    StoreKind.POSTGRES,
                                    STORE,
                                    new CopyTarget.TableMapping(
                                            SCHEMA, "profiles_copy", Map.of("id", "id", "name", "name")))))
                            .build());
            datasets.put(
                    "cache by name",
                    plain.toBuilder()
                            .copies(List.of(new DatasetCopy(
                                    "profile-cache",
                                    StoreKind.REDIS,
                                    "bench-redis",
                                    new CopyTarget.KeyTemplate("bench:profile:{name}"))))
                            .build());
            CutoffTimestamp cutoff = CutoffTimestamp.fromInstant(Instant.now().minusSeconds(60));

            System.out.printf(
                    Locale.ROOT,
                    "PostgreSQL dataset of %,d rows; batches of %d keys, one thread, unthrottled"
                            + " (cap %,d rows/s); producer %s%n",
                    rows,
                    KEYS,
                    config.maxRowsPerSecond(),
                    producer.entrySet().stream()
                            .filter(e -> !e.getKey().equals(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG))
                            .toList());
            long next = run(executor, timings, plain, cutoff, 1, WARMUP);
            Map<String, Map<String, double[]>> steps = new LinkedHashMap<>();
            for (Map.Entry<String, DatasetSpec> dataset : datasets.entrySet()) {
                timings.reset();
                int batches = dataset.getValue() == plain ? BATCHES : COPY_BATCHES;
                next = run(executor, timings, dataset.getValue(), cutoff, next, batches);
                steps.put(dataset.getKey(), timings.medians());
                if (Boolean.getBoolean("bench.dump")) {
                    timings.dump(12);
                }
            }

            System.out.printf(
                    Locale.ROOT,
                    "%nms per batch, median of %d batches (no copies), %d batches (with a table"
                            + " copy keyed by the source key; with a cache keyed by a non-key column)%n",
                    BATCHES,
                    COPY_BATCHES);
            System.out.printf(Locale.ROOT, "%-34s", "step");
            steps.keySet().forEach(dataset -> System.out.printf(Locale.ROOT, " %13s %5s", dataset, "share"));
            System.out.println();
            List<String> names = new ArrayList<>();
            steps.values()
                    .forEach(medians -> medians.keySet().stream()
                            .filter(name -> !names.contains(name))
                            .forEach(names::add));
            names.remove(Timings.OTHER);
            names.remove(Timings.TOTAL);
            names.add(Timings.OTHER);
            names.add(Timings.TOTAL);
            for (String name : names) {
                System.out.printf(Locale.ROOT, "%-34s", name);
                for (Map<String, double[]> medians : steps.values()) {
                    double ms = medians.getOrDefault(name, new double[] {0})[0];
                    System.out.printf(Locale.ROOT, " %13.2f %4.0f%%", ms, 100 * ms / medians.get(Timings.TOTAL)[0]);
                }
                System.out.println();
            }
            System.out.printf(Locale.ROOT, "rows/s at the median batch:");
            steps.forEach((dataset, medians) -> System.out.printf(
                    Locale.ROOT, " %,.0f (%s)", KEYS * 1000 / medians.get(Timings.TOTAL)[0], dataset));
            System.out.println();
            System.out.printf(
                    Locale.ROOT,
                    "(medians per step do not add up to the median batch; 'other' is the median of"
                            + " each batch's rest)%n");

            double[] keyLookups = new double[50];
            for (int i = 0; i < keyLookups.length; i++) {
                long started = System.nanoTime();
                sealed.currentKey(plain.name());
                keyLookups[i] = (System.nanoTime() - started) / 1e6;
            }
            double[] sends = new double[50];
            for (int i = 0; i < sends.length; i++) {
                long started = System.nanoTime();
                kafka.send(Topics.RUN_EVENTS, "bench", "{}").get(10, TimeUnit.SECONDS);
                sends[i] = (System.nanoTime() - started) / 1e6;
            }
            // what the log append spends sealing, without Kafka: records like the table's rows
            DeletionTask sample = DeletionTask.forRun(RunId.random(), plain, List.of(Map.of("id", 1L)), cutoff);
            List<DeletionRecord> records = new ArrayList<>();
            for (long id = 1; id <= KEYS; id++) {
                records.add(DeletionRecord.of(
                        sample,
                        sample.batchId(0),
                        Map.of("id", id),
                        List.of(
                                ColumnValue.of("id", id),
                                ColumnValue.of("name", "name-" + id),
                                ColumnValue.of("payload", "0123456789abcdef".repeat(4)),
                                ColumnValue.of("updated_at", "2026-01-01T00:00:00Z")),
                        Instant.now()));
            }
            double[] seals = new double[20];
            for (int i = 0; i < seals.length; i++) {
                long started = System.nanoTime();
                DatasetKeys.DataKey key = sealed.currentKey(plain.name());
                for (DeletionRecord record : records) {
                    Topics.logKey(record);
                    sealed.sealForTopic(record, key);
                }
                seals[i] = (System.nanoTime() - started) / 1e6;
            }
            System.out.printf(
                    Locale.ROOT,
                    "for reference, medians: the data-key lookup (Cassandra, part of the log"
                            + " append) %.2f ms; sealing %d records (CPU, part of the log append) %.2f ms;"
                            + " one Kafka send awaited alone %.2f ms%n",
                    DeletionHeadroomBenchmark.median(keyLookups),
                    KEYS,
                    DeletionHeadroomBenchmark.median(seals),
                    DeletionHeadroomBenchmark.median(sends));
            stores.close();
            kafka.getProducerFactory().reset();
            dataSource.close();
        }
        System.exit(0);
    }

    private static long run(
            BatchExecutor executor, Timings timings, DatasetSpec spec, CutoffTimestamp cutoff, long from, int batches) {
        for (int batch = 0; batch < batches; batch++) {
            List<Map<String, Object>> keys = new ArrayList<>(KEYS);
            for (long id = from; id < from + KEYS; id++) {
                keys.add(Map.of("id", id));
            }
            from += KEYS;
            DeletionTask task = DeletionTask.forRun(RunId.random(), spec, keys, cutoff);
            long started = System.nanoTime();
            executor.execute(task);
            timings.batchDone(System.nanoTime() - started);
        }
        return from;
    }

    /** The service's own application.yml, flattened, so the benchmark's producer is the service's. */
    /** The service's LOCAL ONLY signing key: copy tasks are signed as the service signs them. */
    private static TaskSigner signer(Properties service, Clock clock) {
        return new TaskSigner(
                SigningKey.of(
                        service.getProperty("erasure.signing.key-id"),
                        service.getProperty("erasure.signing.private-key")),
                "deletion-service",
                clock);
    }

    private static Properties serviceConfiguration() {
        YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
        // the local profile holds the LOCAL ONLY keys (the log's master key), as ./erasure-local and the tests run it
        yaml.setResources(new ClassPathResource("application.yml"), new ClassPathResource("application-local.yml"));
        return yaml.getObject();
    }

    private static void createTopics(Admin admin) throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        for (String topic : List.of(Topics.DELETION_LOG, Topics.DELETION_TASKS, Topics.RUN_EVENTS, Topics.CONTROL)) {
            if (!admin.listTopics().names().get(10, TimeUnit.SECONDS).contains(topic)) {
                topics.add(new NewTopic(topic, topic.equals(Topics.CONTROL) ? 1 : 8, (short) 1));
            }
        }
        admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
    }

    private static DatasetSpec load(JdbcTemplate jdbc, int rows) {
        jdbc.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        jdbc.execute("CREATE SCHEMA " + SCHEMA);
        for (String table : List.of("profiles", "profiles_copy")) {
            jdbc.execute("CREATE TABLE " + SCHEMA + "." + table + " (id bigint PRIMARY KEY, name text, payload text,"
                    + " updated_at timestamptz NOT NULL)");
            jdbc.update(
                    "INSERT INTO " + SCHEMA + "." + table
                            + " SELECT i, 'name-' || i, md5(i::text) || md5((i + 1)::text),"
                            + " now() - interval '10 days' FROM generate_series(1, ?) AS i",
                    rows);
            jdbc.execute("VACUUM ANALYZE " + SCHEMA + "." + table);
        }
        return DatasetSpec.builder()
                .name("batch-bench-profiles")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef(STORE)
                .namespace(SCHEMA)
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation("batch-bench-profiles", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("bench")
                .build();
    }

    /** Per batch, the nanoseconds of each step (in the order first seen); per run, every batch's. */
    static final class Timings {
        static final String TOTAL = "batch (total)";
        static final String OTHER = "other (executor CPU)";
        private final Map<String, Long> current = new LinkedHashMap<>();
        private final Map<String, List<Long>> batches = new LinkedHashMap<>();
        /** Per open timing, the time of the timings nested in it (a gate checked while the throttle waits). */
        private final ArrayDeque<long[]> open = new ArrayDeque<>();

        private int count;

        <T> T time(String step, Supplier<T> call) {
            long started = System.nanoTime();
            long[] nested = {0};
            open.push(nested);
            try {
                return call.get();
            } finally {
                open.pop();
                long elapsed = System.nanoTime() - started;
                current.merge(step, elapsed - nested[0], Long::sum);
                if (!open.isEmpty()) {
                    open.peek()[0] += elapsed;
                }
            }
        }

        void time(String step, Runnable call) {
            time(step, () -> {
                call.run();
                return null;
            });
        }

        void batchDone(long totalNanos) {
            long steps = 0;
            for (String step : batches.keySet()) {
                if (!step.equals(OTHER) && !step.equals(TOTAL)) {
                    current.putIfAbsent(step, 0L);
                }
            }
            for (Map.Entry<String, Long> step : current.entrySet()) {
                List<Long> values = batches.computeIfAbsent(step.getKey(), k -> {
                    List<Long> zeros = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        zeros.add(0L);
                    }
                    return zeros;
                });
                values.add(step.getValue());
                steps += step.getValue();
            }
            batches.computeIfAbsent(OTHER, k -> new ArrayList<>()).add(Math.max(0, totalNanos - steps));
            batches.computeIfAbsent(TOTAL, k -> new ArrayList<>()).add(totalNanos);
            current.clear();
            count++;
        }

        void reset() {
            current.clear();
            batches.clear();
            count = 0;
        }

        void dump(int batchesToShow) {
            batches.forEach((step, values) -> System.out.printf(
                    Locale.ROOT,
                    "%-34s %s%n",
                    step,
                    values.stream()
                            .limit(batchesToShow)
                            .map(v -> String.format(Locale.ROOT, "%7.2f", v / 1e6))
                            .toList()));
        }

        Map<String, double[]> medians() {
            Map<String, double[]> medians = new LinkedHashMap<>();
            batches.forEach((step, values) -> {
                if (step.equals(OTHER) || step.equals(TOTAL)) {
                    return;
                }
                medians.put(step, new double[] {
                    DeletionHeadroomBenchmark.median(
                            values.stream().mapToDouble(v -> v / 1e6).toArray())
                });
            });
            medians.put(OTHER, new double[] {
                DeletionHeadroomBenchmark.median(
                        batches.get(OTHER).stream().mapToDouble(v -> v / 1e6).toArray())
            });
            medians.put(TOTAL, new double[] {
                DeletionHeadroomBenchmark.median(
                        batches.get(TOTAL).stream().mapToDouble(v -> v / 1e6).toArray())
            });
            return medians;
        }
    }

    private static final class TimedProcessedBatches extends ProcessedBatches {
        private final Timings timings;

        TimedProcessedBatches(Timings timings, JdbcTemplate jdbc) {
            super(jdbc);
            this.timings = timings;
        }

        @Override
        public Optional<Done> redelivered(String batchId, String dataset, String keySet) {
            return timings.time("redelivery check (PG)", () -> super.redelivered(batchId, dataset, keySet));
        }

        @Override
        public void done(
                String batchId,
                String dataset,
                String keySet,
                String runId,
                String taskId,
                Done result,
                int pacedKeys,
                boolean dropCopyValues) {
            timings.time(
                    "record the batch done (PG)",
                    () -> super.done(batchId, dataset, keySet, runId, taskId, result, pacedKeys, dropCopyValues));
        }
    }

    private static final class TimedLag extends LogIngestionLag {
        private final Timings timings;

        TimedLag(
                Timings timings,
                Admin admin,
                Supplier<Consumer<String, String>> readers,
                DeletionProperties properties) {
            super(admin, readers, "deletion-log-service", properties.logLagThreshold(), Duration.ofSeconds(2));
            this.timings = timings;
        }

        @Override
        public String why(String... datasets) {
            return timings.time("log-lag and dead-letter gate", () -> super.why(datasets));
        }
    }

    private static final class TimedThrottle extends AdaptiveThrottle {
        private final Timings timings;

        TimedThrottle(Timings timings, DeletionProperties properties, ShardOwnership ownership) {
            super(properties, ownership, new SimpleMeterRegistry());
            this.timings = timings;
        }

        @Override
        public boolean acquire(String store, int rows, BooleanSupplier stop, Duration poll) {
            return timings.time("throttle wait", () -> super.acquire(store, rows, stop, poll));
        }
    }

    private static final class TimedLog extends WriteAheadDeletionLog {
        private final Timings timings;

        TimedLog(
                Timings timings,
                KafkaTemplate<String, String> kafka,
                S3Client s3,
                JsonMapper json,
                DeletionProperties properties,
                Supplier<SealedRecords> sealing,
                Supplier<FrozenSpecs> frozenSpecs) {
            super(kafka, s3, "erasure", json, properties.maxRecordBytes(), sealing, frozenSpecs);
            this.timings = timings;
        }

        /** Sealing and sending, then the wait for the acknowledgements, as one step (other work may run in between). */
        @Override
        public Acknowledgements send(List<DeletionRecord> records) {
            Acknowledgements acks = timings.time(LOG_APPEND, () -> super.send(records));
            return () -> timings.time(LOG_APPEND, acks::await);
        }
    }

    private static final class TimedFanOut extends CopyFanOut {
        private final Timings timings;

        TimedFanOut(Timings timings, DeletionTaskPublisher publisher, JsonMapper json, JdbcTemplate jdbc) {
            super(publisher, json, jdbc);
            this.timings = timings;
        }

        @Override
        public Remembered remember(DeletionTask task, String batchId, Collection<LiveRow> rows) {
            return timings.time("remember copy values (PG)", () -> super.remember(task, batchId, rows));
        }

        @Override
        public int publish(
                DeletionTask task,
                String batchId,
                Remembered remembered,
                Collection<Map<String, Object>> deleted,
                Collection<Map<String, Object>> alreadyAbsent,
                Instant deletedAt) {
            return timings.time(
                    "copy tasks (PG read, Kafka acks)",
                    () -> super.publish(task, batchId, remembered, deleted, alreadyAbsent, deletedAt));
        }
    }

    private static final class TimedEvents extends BatchEvents {
        private final Timings timings;

        TimedEvents(Timings timings, KafkaTemplate<String, String> kafka, JsonMapper json, Clock clock) {
            // sealed as the service seals them (its LOCAL ONLY key): the seal is part of reporting's cost
            super(
                    kafka,
                    json,
                    clock,
                    SigningKey.of(
                            "deletion-local", "MC4CAQAwBQYDK2VwBCIEIA9XFmeJqe3S4bqKJBbRJ2YcW+jffB2SautBhvlOxL0C"));
            this.timings = timings;
        }

        /** Sending, then the wait for the acknowledgement, as one step (the batch is recorded in between). */
        @Override
        public Sent sendAsync(DeletionTask task, String batchId, EventPayload payload) {
            Sent sent = timings.time(REPORT, () -> super.sendAsync(task, batchId, payload));
            return () -> timings.time(REPORT, sent::await);
        }
    }

    /** The pool, with each store call timed. */
    private static final class TimedStores extends StoreAdapterPool {
        private final Timings timings;
        private final StoreAdapterPool pool;

        TimedStores(Timings timings, StoreAdapterPool pool) {
            super(null, new StoreConnectionsProperties(Map.of()));
            this.timings = timings;
            this.pool = pool;
        }

        @Override
        public StoreAdapter checkedAdapter(DatasetSpec spec) {
            return new TimedAdapter(timings, pool.checkedAdapter(spec));
        }

        @Override
        public void close() {
            pool.close();
        }
    }

    private record TimedAdapter(Timings timings, StoreAdapter adapter) implements StoreAdapter {
        @Override
        public StoreCapabilities capabilities() {
            return adapter.capabilities();
        }

        @Override
        public void checkDataset(DatasetSpec spec) {
            adapter.checkDataset(spec);
        }

        @Override
        public List<LiveRow> readRows(DatasetSpec spec, List<Map<String, Object>> keys) {
            return timings.time("read rows (store)", () -> adapter.readRows(spec, keys));
        }

        @Override
        public List<LiveState> checkLiveState(DatasetSpec spec, List<Map<String, Object>> keys) {
            return timings.time("read-back (store)", () -> adapter.checkLiveState(spec, keys));
        }

        @Override
        public int readStatements(DatasetSpec spec, int keyCount) {
            return adapter.readStatements(spec, keyCount);
        }

        @Override
        public DeletePlan planDelete(DeleteBatch batch) {
            return timings.time("plan (store)", () -> adapter.planDelete(batch));
        }

        @Override
        public DeleteOutcome executeDelete(DeletePlan plan) {
            return timings.time("delete (store)", () -> adapter.executeDelete(plan));
        }

        @Override
        public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
            return adapter.restore(spec, records);
        }

        @Override
        public LoadSignal loadSignal() {
            return adapter.loadSignal();
        }

        @Override
        public void close() {
            adapter.close();
        }
    }
}
