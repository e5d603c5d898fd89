package io.erasure.infra.runtime;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import redis.embedded.RedisServer;

/**
 * Hosts one engine that ships as a library or binary inside a jar, in a child JVM started by
 * local-engines under the OrphanGuard:
 * <pre>
 *   EngineHost postgres &lt;port&gt; &lt;data dir&gt;
 *   EngineHost redis    &lt;port&gt; &lt;data dir&gt;
 *   EngineHost s3       &lt;port&gt; &lt;data dir&gt; &lt;bucket&gt; &lt;access key&gt; &lt;secret key&gt;
 *   EngineHost prometheus &lt;port&gt; &lt;data dir&gt; &lt;prometheus binary&gt; &lt;config file&gt;
 * </pre>
 * Prints {@value #READY} when the engine serves; stops it from a shutdown hook, so the PostgreSQL and
 * Redis server processes go down with this JVM.
 */
public final class EngineHost {

    public static final String READY = "ERASURE-ENGINE-READY";

    private EngineHost() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: EngineHost postgres|redis|s3 <port> <data dir> [...]");
        }
        int port = Integer.parseInt(args[1]);
        Path dataDir = Path.of(args[2]);
        Files.createDirectories(dataDir);
        AutoCloseable engine = switch (args[0]) {
            case "postgres" -> startPostgres(port, dataDir);
            case "redis" -> startRedis(port, dataDir);
            case "s3" -> startS3(port, dataDir, args[3], args[4], args[5]);
            case "prometheus" -> startPrometheus(port, dataDir, args[3], args[4]);
            default ->
                throw new IllegalArgumentException(
                        "unknown engine '" + args[0] + "': use postgres, redis, s3 or prometheus");
        };
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                engine.close();
                                System.out.println("stopped " + args[0]);
                            } catch (Exception e) {
                                e.printStackTrace();
                            }
                        },
                        "engine-host-stop"));
        System.out.println(READY + " " + args[0] + " on port " + port);
        Thread.currentThread().join();
    }

    private static AutoCloseable startPostgres(int port, Path dataDir) throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setPort(port)
                .setDataDirectory(dataDir.resolve("pgdata"))
                .setOverrideWorkingDirectory(dataDir.resolve("binaries").toFile())
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false)
                .setServerConfig("max_connections", "200")
                .start();
        return postgres;
    }

    /**
     * An installed Prometheus (Debian's package: not a Maven artifact), on 127.0.0.1 only, keeping two days of samples
     * under {@code dataDir}; ready when it answers {@code /-/ready}.
     */
    private static AutoCloseable startPrometheus(int port, Path dataDir, String binary, String config)
            throws Exception {
        Process prometheus = new ProcessBuilder(
                        binary,
                        "--config.file=" + config,
                        "--storage.tsdb.path=" + dataDir.resolve("tsdb"),
                        "--storage.tsdb.retention.time=2d",
                        "--web.listen-address=127.0.0.1:" + port,
                        "--web.enable-lifecycle")
                .redirectErrorStream(true)
                .redirectOutput(dataDir.resolve("prometheus.log").toFile())
                .start();
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/ready"))
                .timeout(Duration.ofSeconds(2))
                .build();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            if (!prometheus.isAlive()) {
                throw new IllegalStateException("prometheus exited with " + prometheus.exitValue() + "; see "
                        + dataDir.resolve("prometheus.log"));
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    break;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                prometheus.destroyForcibly();
                throw new IllegalStateException(
                        "prometheus not ready after 60 s; see " + dataDir.resolve("prometheus.log"));
            }
            Thread.sleep(100); // polling its readiness endpoint
        }
        return () -> {
            prometheus.destroy();
            if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly();
            }
        };
    }

    private static AutoCloseable startRedis(int port, Path dataDir) throws Exception {
        RedisServer redis = RedisServer.newRedisServer()
                .port(port)
                .bind("127.0.0.1")
                .setting("dir " + dataDir)
                .setting("appendonly no")
                .build();
        redis.start();
        return redis::stop;
    }

    private static AutoCloseable startS3(int port, Path dataDir, String bucket, String accessKey, String secretKey)
            throws Exception {
        Properties properties = new Properties();
        properties.setProperty("jclouds.filesystem.basedir", dataDir.toString());
        BlobStoreContext context = ContextBuilder.newBuilder("filesystem-nio2")
                .credentials(accessKey, secretKey)
                .overrides(properties)
                .build(BlobStoreContext.class);
        BlobStore blobStore = context.getBlobStore();
        blobStore.createContainerInLocation(null, bucket);
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(blobStore)
                .endpoint(URI.create("http://127.0.0.1:" + port))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
                .build();
        proxy.start();
        while (!"STARTED".equals(proxy.getState())) {
            Thread.sleep(20);
        }
        return () -> {
            proxy.stop();
            context.close();
        };
    }
}
