package io.erasure.local;

import io.erasure.infra.Engine;
import io.erasure.infra.LocalInfraMain;
import io.erasure.process.ChildJvm;
import io.erasure.process.JavaRuntimes;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * The whole platform on one machine: the five engines (persistent data under {@code .erasure-local/})
 * and every service, each in its own JVM, until Ctrl-C stops them all. Started by {@code ./erasure-local}
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

    private LocalPlatform() {
    }

    public static void main(String[] args) throws Exception {
        Path project = Path.of("").toAbsolutePath();
        Path root = project.resolve(args.length > 0 ? args[0] : ".erasure-local");
        System.out.println("Starting Cassandra, Kafka, PostgreSQL, Redis and S3 (data under " + root + ") ...");
        List<Engine> engines = LocalInfraMain.start(root.resolve("engines"));
        List<ChildJvm> services = new ArrayList<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("Stopping services and engines ...");
            services.forEach(ChildJvm::close);
            LocalInfraMain.stop(engines);
            stopped.countDown();
        }, "local-platform-stop"));

        Map<String, String> engineProperties = LocalInfraMain.springProperties(engines);
        for (Service service : SERVICES) {
            services.add(start(project, root, service, engineProperties));
        }
        for (int i = 0; i < SERVICES.size(); i++) {
            awaitHealthy(SERVICES.get(i), services.get(i));
        }
        System.out.println();
        System.out.println("Erasure is running:");
        for (Service service : SERVICES) {
            System.out.printf("  %-22s http://127.0.0.1:%d  (log: %s)%n", service.module(), service.port(),
                    root.resolve("logs/" + service.module() + ".log"));
        }
        System.out.println("Engines:");
        engineProperties.forEach((key, value) -> System.out.println("  " + key + "=" + value));
        System.out.println("Ctrl-C stops everything.");
        stopped.await();
    }

    private static ChildJvm start(Path project, Path root, Service service, Map<String, String> engineProperties) {
        Path jar = serviceJar(project, service.module());
        List<String> args = new ArrayList<>();
        args.add("--server.port=" + service.port());
        engineProperties.forEach((key, value) -> args.add("--" + key + "=" + value));
        return ChildJvm.start(service.module(), ChildJvm.guardJar() + File.pathSeparator + jar, JavaRuntimes.current(),
                List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), BOOT_LAUNCHER, args,
                root.resolve("services/" + service.module()), root.resolve("logs/" + service.module() + ".log"));
    }

    private static Path serviceJar(Path project, String module) {
        Path target = project.resolve(module).resolve("target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().matches(module + "-[0-9][^/]*\\.jar"))
                    .filter(p -> !p.getFileName().toString().endsWith("-plain.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no jar in " + target + ": build first (./mvnw install -DskipTests)"));
        } catch (IOException e) {
            throw new IllegalStateException("no " + target + ": build first (./mvnw install -DskipTests)", e);
        }
    }

    private static void awaitHealthy(Service service, ChildJvm jvm) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!jvm.isAlive()) {
                throw new IllegalStateException(service.module() + " exited; end of its log:\n" + jvm.logTail());
            }
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(service.health())
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
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
