package io.erasure.infra;

import io.erasure.infra.process.Folders;
import io.erasure.infra.process.FreePorts;
import io.erasure.process.ChildJvm;
import io.erasure.process.JavaRuntimes;
import io.erasure.process.RuntimeClasspath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A real Kafka 4 broker in KRaft combined mode (broker + controller) in a child JVM, formatted on
 * first start. {@link #restart()} stops and starts it on the same data and ports, for restart tests.
 */
public final class KafkaEngine implements Engine {

    private static final RuntimeClasspath RUNTIME = RuntimeClasspath.of("runtime-kafka");
    private static final List<String> JVM_ARGS =
            List.of("-Xmx256m", "-Xms256m", "-XX:+UseG1GC", "-Djava.net.preferIPv4Stack=true");

    private final int port;
    private final int controllerPort;
    private final EngineFolder folder;
    private final Path config;
    private final Path log4j;
    private ChildJvm jvm;

    public KafkaEngine(int port, int controllerPort, EngineFolder folder) {
        this.port = port;
        this.controllerPort = controllerPort;
        this.folder = folder;
        this.config = folder.path().resolve("conf/server.properties");
        this.log4j = folder.path().resolve("conf/log4j2.properties");
        Folders.write(config, serverProperties(folder.path().resolve("data")));
        Folders.write(log4j, LOG4J);
        if (!Files.exists(folder.path().resolve("data/meta.properties"))) {
            format();
        }
        start();
    }

    static KafkaEngine startForTests() {
        return new KafkaEngine(FreePorts.next(), FreePorts.next(), EngineFolder.temporary("kafka"));
    }

    @Override
    public String name() {
        return "kafka";
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public long pid() {
        return jvm.pid();
    }

    @Override
    public Map<String, String> springProperties() {
        return Map.of("spring.kafka.bootstrap-servers", bootstrapServers());
    }

    /** Stops the broker cleanly and starts it again on the same data. */
    public synchronized void restart() {
        jvm.close();
        start();
    }

    /** Kills the broker at once (a crash), then starts it again on the same data. */
    public synchronized void crashAndRestart() {
        jvm.kill();
        start();
    }

    @Override
    public synchronized void close() {
        if (jvm != null) {
            jvm.close();
            jvm = null;
            folder.release();
        }
    }

    private void format() {
        ChildJvm formatter = ChildJvm.start(
                "kafka-format",
                RUNTIME,
                JavaRuntimes.current(),
                withLogging(),
                "kafka.tools.StorageTool",
                List.of(
                        "format",
                        "-t",
                        UUID.randomUUID().toString().replace("-", "").substring(0, 22),
                        "-c",
                        config.toString(),
                        "--ignore-formatted"),
                folder.path(),
                folder.path().resolve("logs/kafka-format.log"));
        formatter.awaitExit(Duration.ofSeconds(60));
    }

    private void start() {
        jvm = ChildJvm.start(
                "kafka",
                RUNTIME,
                JavaRuntimes.current(),
                withLogging(),
                "kafka.Kafka",
                List.of(config.toString()),
                folder.path(),
                folder.path().resolve("logs/kafka.log"));
        try {
            jvm.awaitLog("Kafka Server started", Duration.ofSeconds(120));
            jvm.awaitPort(port, Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private List<String> withLogging() {
        return Stream.concat(JVM_ARGS.stream(), Stream.of("-Dlog4j2.configurationFile=" + log4j))
                .toList();
    }

    private String serverProperties(Path data) {
        return """
                process.roles=broker,controller
                node.id=1
                controller.quorum.voters=1@127.0.0.1:%d
                listeners=PLAINTEXT://127.0.0.1:%d,CONTROLLER://127.0.0.1:%d
                advertised.listeners=PLAINTEXT://127.0.0.1:%d
                controller.listener.names=CONTROLLER
                inter.broker.listener.name=PLAINTEXT
                listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
                log.dirs=%s
                num.partitions=4
                offsets.topic.replication.factor=1
                offsets.topic.num.partitions=1
                transaction.state.log.replication.factor=1
                transaction.state.log.min.isr=1
                transaction.state.log.num.partitions=1
                share.coordinator.state.topic.replication.factor=1
                share.coordinator.state.topic.min.isr=1
                group.initial.rebalance.delay.ms=0
                auto.create.topics.enable=true
                unclean.leader.election.enable=false
                log.retention.hours=168
                """.formatted(controllerPort, port, controllerPort, port, data);
    }

    private static final String LOG4J = """
            status = warn
            appender.out.type = Console
            appender.out.name = OUT
            appender.out.layout.type = PatternLayout
            appender.out.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{1} - %m%n
            rootLogger.level = info
            rootLogger.appenderRef.out.ref = OUT
            logger.kafka.name = kafka
            logger.kafka.level = warn
            logger.apache.name = org.apache.kafka
            logger.apache.level = warn
            logger.state.name = state.change.logger
            logger.state.level = warn
            logger.server.name = kafka.server.KafkaRaftServer
            logger.server.level = info
            """;
}
