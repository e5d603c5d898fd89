package io.erasure.local;

import io.erasure.infra.CassandraEngine;
import io.erasure.infra.Engine;
import io.erasure.infra.LocalInfraMain;
import io.erasure.infra.OpenSearchEngine;
import io.erasure.infra.PostgresEngine;
import io.erasure.infra.PrometheusEngine;
import io.erasure.infra.RedisEngine;
import io.erasure.infra.S3Engine;
import io.erasure.local.demo.DemoCycle;
import io.erasure.local.demo.DemoData;
import io.erasure.local.demo.PlatformClient;
import io.erasure.process.ChildJvm;
import io.erasure.process.JavaRuntimes;
import io.erasure.process.RuntimeClasspath;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole platform on one machine: the five engines (persistent data under {@code .erasure-local/})
 * and every service, each in its own JVM, then one demo cycle ({@link DemoCycle}; {@code --no-demo} skips
 * it), until Ctrl-C stops them all. Started by {@code ./erasure-local}
 * from the project root after a build.
 */
public final class LocalPlatform {

    /** Each service module and the port it serves on. */
    static final List<Service> SERVICES = List.of(
            new Service("control-plane", 8080),
            new Service("audit-service", 8081),
            new Service("validation-service", 8082),
            new Service("deletion-service", 8083),
            new Service("deletion-log-service", 8084),
            new Service("recovery-service", 8085));

    private static final String BOOT_LAUNCHER = "org.springframework.boot.loader.launch.JarLauncher";

    record Service(String module, int port) {
        URI health() {
            return URI.create("http://127.0.0.1:" + port + "/actuator/health");
        }
    }

    private LocalPlatform() {}

    public static void main(String[] args) throws Exception {
        Path project = Path.of("").toAbsolutePath();
        Path root = project.resolve(args.length > 0 ? args[0] : ".erasure-local");
        boolean demo = !List.of(args).contains("--no-demo");
        CountDownLatch stopped = new CountDownLatch(1);
        Running platform = start(project, root);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            platform.close();
                            stopped.countDown();
                        },
                        "local-platform-stop"));
        System.out.println();
        System.out.println("Erasure is running:");
        for (Service service : SERVICES) {
            System.out.printf(
                    "  %-22s http://127.0.0.1:%d  (log: %s)%n",
                    service.module(), service.port(), root.resolve("logs/" + service.module() + ".log"));
        }
        platform.engines().stream()
                .filter(PrometheusEngine.class::isInstance)
                .findFirst()
                .ifPresent(prometheus -> System.out.printf(
                        "  %-22s %s  (alerts: %s/alerts)%n", "prometheus", LocalMonitoring.URL, LocalMonitoring.URL));
        if (demo) {
            try {
                platform.demo(System.out).run();
            } catch (Exception e) {
                System.out.println(
                        "The demo cycle failed: " + e.getMessage() + " (the platform keeps running; see the logs)");
            }
        }
        System.out.println();
        System.out.println("Dashboard: " + DASHBOARD
                + "  (sign in as operator/operator; also owner/owner, recovery/recovery," + " viewer/viewer)");
        System.out.println("Ctrl-C stops everything.");
        stopped.await();
    }

    /** The dashboard's address on the local platform. */
    public static final String DASHBOARD = "http://127.0.0.1:8080/dashboard/";

    /** Starts the engines under {@code root} and every service built in {@code project}; closing stops them all. */
    public static Running start(Path project, Path root) throws InterruptedException {
        return start(project, root, properties -> properties);
    }

    /**
     * As {@link #start(Path, Path)}, with every service's properties passed through {@code adjust} first (a benchmark's
     * rate cap, a second connection to the same engine).
     */
    public static Running start(Path project, Path root, UnaryOperator<Map<String, String>> adjust)
            throws InterruptedException {
        System.out.println(
                "Starting Cassandra, Kafka, PostgreSQL, Redis, S3 and OpenSearch (data under " + root + ") ...");
        List<Engine> engines = LocalInfraMain.start(root.resolve("engines"));
        Map<String, String> properties = new LinkedHashMap<>(adjust.apply(serviceProperties(engines)));
        Running running = new Running(engines, new ArrayList<>(), project, root, properties);
        try {
            for (Service service : SERVICES) {
                running.services().add(start(project, root, service, properties));
            }
            for (int i = 0; i < SERVICES.size(); i++) {
                awaitHealthy(SERVICES.get(i), running.services().get(i));
            }
            LocalMonitoring.startIfInstalled(project, root, SERVICES).ifPresent(engines::add);
            return running;
        } catch (RuntimeException | InterruptedException e) {
            running.close();
            throw e;
        }
    }

    /** The engines and service JVMs of a started platform, and what restarting a service needs. */
    public record Running(
            List<Engine> engines, List<ChildJvm> services, Path project, Path root, Map<String, String> properties)
            implements AutoCloseable {

        /** Kills a service at once, as a crash would (fault tests); {@link #restart} brings it back. */
        public void kill(String module) {
            services.get(indexOf(module)).kill();
        }

        /** Starts a killed (or running: it is killed first) service again and waits until it is healthy. */
        public void restart(String module) throws InterruptedException {
            int index = indexOf(module);
            services.get(index).kill();
            ChildJvm started = start(project, root, SERVICES.get(index), properties);
            services.set(index, started);
            awaitHealthy(SERVICES.get(index), started);
        }

        /**
         * Starts again every service whose JVM has exited (a crash, a restart that failed because what it needs was
         * down too) and waits until each is healthy, as a supervisor would; the modules restarted.
         */
        public List<String> restartExited() throws InterruptedException {
            List<String> restarted = new ArrayList<>();
            for (int i = 0; i < SERVICES.size(); i++) {
                if (!services.get(i).isAlive()) {
                    restart(SERVICES.get(i).module());
                    restarted.add(SERVICES.get(i).module());
                }
            }
            return restarted;
        }

        private static int indexOf(String module) {
            for (int i = 0; i < SERVICES.size(); i++) {
                if (SERVICES.get(i).module().equals(module)) {
                    return i;
                }
            }
            throw new IllegalArgumentException("no service " + module + "; the services are " + SERVICES);
        }

        /** The demo cycle against this platform. */
        public DemoCycle demo(PrintStream out) {
            PostgresEngine postgres = engine(PostgresEngine.class);
            CassandraEngine cassandra = engine(CassandraEngine.class);
            RedisEngine redis = engine(RedisEngine.class);
            DemoData data = new DemoData(
                    postgres.jdbcUrl(),
                    PostgresEngine.USER,
                    postgres.password(),
                    cassandra.contactPoint(),
                    CassandraEngine.LOCAL_DATACENTER,
                    "redis://" + redis.host() + ":" + redis.port(),
                    engine(OpenSearchEngine.class).url());
            JsonMapper json = JsonMapper.builder().build();
            PlatformClient controlPlane =
                    new PlatformClient(json, URI.create("http://127.0.0.1:8080"), "viewer", "viewer");
            return new DemoCycle(
                    data, exportOptions(), cassandra, controlPlane, URI.create("http://127.0.0.1:8084"), out);
        }

        /**
         * The options of the backup exporter ({@code BackupExporterMain}) that reach this platform's engines and
         * bucket: both stores' connections; an export names its store, dataset, namespace and table on top.
         */
        public Map<String, String> exportOptions() {
            PostgresEngine postgres = engine(PostgresEngine.class);
            CassandraEngine cassandra = engine(CassandraEngine.class);
            S3Engine s3 = engine(S3Engine.class);
            Map<String, String> export = new LinkedHashMap<>();
            export.put("jdbc-url", postgres.jdbcUrl());
            export.put("user", PostgresEngine.USER);
            export.put("password", postgres.password());
            export.put("contact-points", cassandra.contactPoint());
            export.put("datacenter", CassandraEngine.LOCAL_DATACENTER);
            export.put("consistency", "ONE");
            export.put("parts", "4");
            export.put("s3-endpoint", s3.endpoint().toString());
            export.put("s3-region", s3.region());
            export.put("s3-access-key", s3.accessKey());
            export.put("s3-secret-key", s3.secretKey());
            export.put("s3-bucket", s3.bucket());
            export.put("s3-path-style", "true");
            return export;
        }

        public <E extends Engine> E engine(Class<E> type) {
            return engines.stream()
                    .filter(type::isInstance)
                    .map(type::cast)
                    .findFirst()
                    .orElseThrow();
        }

        @Override
        public void close() {
            System.out.println("Stopping services and engines ...");
            services.forEach(ChildJvm::close);
            LocalInfraMain.stop(engines);
        }
    }

    /**
     * What every service is started with: the engines' Spring properties, and the store connections the
     * demo datasets use ({@code pg-main} with the orders' child table, {@code cassandra-main}, {@code redis-main},
     * {@code search-main}).
     */
    static Map<String, String> serviceProperties(List<Engine> engines) {
        Map<String, String> properties = new LinkedHashMap<>(LocalInfraMain.springProperties(engines));
        for (Engine engine : engines) {
            if (engine instanceof PostgresEngine postgres) {
                properties.putAll(postgres.storeConnectionProperties("pg-main"));
                // demo.orders' items go with their order; "order-records" is the same table registered again as legal
                // records (ForwardDeletionPlatformIT): registration checks it against the live schema, FK included
                for (String dataset : List.of("orders", "order-records")) {
                    String hierarchy = "erasure.connections[pg-main].settings[hierarchy." + dataset + ".child.items.";
                    properties.put(hierarchy + "table]", "demo.order_items");
                    properties.put(hierarchy + "references]", "order_id=order_id");
                    properties.put(hierarchy + "updated-at]", "updated_at");
                }
            } else if (engine instanceof CassandraEngine cassandra) {
                properties.putAll(cassandra.storeConnectionProperties("cassandra-main"));
                // validation looks final sets up in the deletion log: rows deleted before are reported as resurrected
                properties.put("erasure.validation.deletion-log.contact-points", cassandra.contactPoint());
                properties.put("erasure.validation.deletion-log.local-datacenter", CassandraEngine.LOCAL_DATACENTER);
            } else if (engine instanceof RedisEngine redis) {
                properties.putAll(redis.storeConnectionProperties("redis-main"));
            } else if (engine instanceof OpenSearchEngine search) {
                properties.putAll(search.storeConnectionProperties("search-main"));
            }
        }
        properties.put("erasure.access.cors.allowed-origins", "http://127.0.0.1:8080,http://localhost:8080");
        // one machine, small data: a forward request stuck for a minute is re-published (production waits 10 minutes)
        properties.put("erasure.forward.reconcile-after", "1m");
        properties.put("erasure.forward.reconcile-interval", "5s");
        return properties;
    }

    /** The property that names the SSTable writer's classpath to recovery-service's bulk path. */
    static final String BULK_WRITER_CLASSPATH = "erasure.recovery.bulk-writer-classpath";

    /** The property that names the SSTable reader's classpath to audit-service (Medusa backups). */
    static final String SSTABLE_READER_CLASSPATH = "erasure.audit.sstable-reader.classpath";

    /**
     * The command-line arguments of {@code service}: its port, the engines' properties, and what only it needs. No
     * service's jar has cassandra-all (no service depends on it), so the recovery service's bulk path gets the SSTable
     * writer's classpath from here, and the audit service the SSTable reader's: runtime-cassandra's, which this
     * launcher has to start the node.
     */
    /** The services' profile of demo users and local-only keys (service-support's LocalOnly). */
    static final String LOCAL_PROFILE = "local";

    static List<String> serviceArguments(Service service, Map<String, String> engineProperties) {
        List<String> args = new ArrayList<>();
        args.add("--server.port=" + service.port());
        // the demo users and local-only keys of each jar's application-local.yml; without it a service refuses to start
        args.add("--spring.profiles.active=" + LOCAL_PROFILE);
        engineProperties.forEach((key, value) -> args.add("--" + key + "=" + value));
        if (service.module().equals("recovery-service")) {
            args.add("--" + BULK_WRITER_CLASSPATH + "="
                    + RuntimeClasspath.of("runtime-cassandra").asPath());
        }
        if (service.module().equals("audit-service")) {
            args.add("--" + SSTABLE_READER_CLASSPATH + "="
                    + RuntimeClasspath.of("runtime-cassandra").asPath());
        }
        return args;
    }

    private static ChildJvm start(Path project, Path root, Service service, Map<String, String> engineProperties) {
        Path jar = serviceJar(project, service.module());
        List<String> args = serviceArguments(service, engineProperties);
        return ChildJvm.start(
                service.module(),
                ChildJvm.guardJar() + File.pathSeparator + jar,
                JavaRuntimes.current(),
                List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
                BOOT_LAUNCHER,
                args,
                root.resolve("services/" + service.module()),
                root.resolve("logs/" + service.module() + ".log"));
    }

    private static Path serviceJar(Path project, String module) {
        Path target = project.resolve(module).resolve("target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().matches(module + "-[0-9][^/]*\\.jar"))
                    .filter(p -> !p.getFileName().toString().endsWith("-plain.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            "no jar in " + target + ": build first (./mvnw install -DskipTests)"));
        } catch (IOException e) {
            throw new IllegalStateException("no " + target + ": build first (./mvnw install -DskipTests)", e);
        }
    }

    private static void awaitHealthy(Service service, ChildJvm jvm) throws InterruptedException {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!jvm.isAlive()) {
                throw new IllegalStateException(service.module() + " exited; end of its log:\n" + jvm.logTail());
            }
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(service.health())
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                last = response.statusCode() + " " + response.body();
                if (response.statusCode() == 200 && response.body().contains("\"status\":\"UP\"")) {
                    return;
                }
            } catch (IOException notYet) {
                last = notYet.toString();
            }
            Thread.sleep(1000);
        }
        throw new IllegalStateException(service.module() + " is not healthy after 4 minutes: " + last);
    }
}
