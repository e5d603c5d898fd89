package io.erasure.infra;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Starts all six engines on fixed ports with persistent data under one folder, for the local
 * platform: {@code LocalInfraMain [folder]} (default {@code .erasure-local}). Prints the Spring
 * properties that point a service at them and runs until interrupted (Ctrl-C), then stops them all.
 */
public final class LocalInfraMain {

    public static final int CASSANDRA_PORT = 19042;
    public static final int CASSANDRA_STORAGE_PORT = 17000;
    public static final int CASSANDRA_JMX_PORT = 17199;
    public static final int KAFKA_PORT = 19092;
    public static final int KAFKA_CONTROLLER_PORT = 19093;
    public static final int POSTGRES_PORT = 15432;
    public static final int REDIS_PORT = 16379;
    public static final int S3_PORT = 19000;
    public static final int OPENSEARCH_PORT = 19200;
    public static final int OPENSEARCH_TRANSPORT_PORT = 19300;

    private LocalInfraMain() {}

    /** Starts the engines under {@code root}; the caller closes them (in reverse order). */
    public static List<Engine> start(Path root) {
        List<Engine> started = new ArrayList<>();
        try {
            started.add(new PostgresEngine(POSTGRES_PORT, EngineFolder.persistent(root.resolve("postgres"))));
            started.add(new RedisEngine(REDIS_PORT, EngineFolder.persistent(root.resolve("redis"))));
            started.add(new S3Engine(S3_PORT, EngineFolder.persistent(root.resolve("s3"))));
            started.add(
                    new KafkaEngine(KAFKA_PORT, KAFKA_CONTROLLER_PORT, EngineFolder.persistent(root.resolve("kafka"))));
            started.add(new CassandraEngine(
                    CASSANDRA_PORT,
                    CASSANDRA_STORAGE_PORT,
                    CASSANDRA_JMX_PORT,
                    EngineFolder.persistent(root.resolve("cassandra"))));
            started.add(new OpenSearchEngine(
                    OPENSEARCH_PORT, OPENSEARCH_TRANSPORT_PORT, EngineFolder.persistent(root.resolve("opensearch"))));
            return started;
        } catch (RuntimeException e) {
            stop(started);
            throw e;
        }
    }

    public static void stop(List<Engine> engines) {
        for (int i = engines.size() - 1; i >= 0; i--) {
            engines.get(i).close();
        }
    }

    /** Every engine's Spring properties, merged. */
    public static Map<String, String> springProperties(List<Engine> engines) {
        Map<String, String> properties = new LinkedHashMap<>();
        engines.forEach(engine -> properties.putAll(engine.springProperties()));
        return properties;
    }

    public static void main(String[] args) throws InterruptedException {
        Path root = Path.of(args.length > 0 ? args[0] : ".erasure-local");
        List<Engine> engines = start(root);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            stop(engines);
                            stopped.countDown();
                        },
                        "local-infra-stop"));
        System.out.println("Engines running with data under " + root.toAbsolutePath() + ":");
        springProperties(engines).forEach((key, value) -> System.out.println("  " + key + "=" + value));
        System.out.println("Ctrl-C stops them all.");
        stopped.await();
    }
}
