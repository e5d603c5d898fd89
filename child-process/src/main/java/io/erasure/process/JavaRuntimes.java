package io.erasure.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Finds the {@code java} executable a child JVM must run on. */
public final class JavaRuntimes {

    /**
     * The module flags of Cassandra 5.0's {@code jvm17-server.options}: the node needs them on Java 17, and so do
     * its offline tools (the SSTable writer of bulk restores).
     */
    public static final List<String> CASSANDRA_JAVA17_FLAGS = List.of(
            "-Djdk.attach.allowAttachSelf=true",
            "--add-exports",
            "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports",
            "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-exports",
            "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-exports",
            "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
            "--add-exports",
            "java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports",
            "java.rmi/sun.rmi.server=ALL-UNNAMED",
            "--add-exports",
            "java.sql/java.sql=ALL-UNNAMED",
            "--add-exports",
            "java.base/java.lang.ref=ALL-UNNAMED",
            "--add-exports",
            "jdk.unsupported/sun.misc=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.lang.module=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.loader=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.reflect=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.math=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.module=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.util.jar=ALL-UNNAMED",
            "--add-opens",
            "jdk.management/com.sun.management.internal=ALL-UNNAMED",
            "--add-opens",
            "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.io=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.nio=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.util=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.lang=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.math=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.net=ALL-UNNAMED");

    private JavaRuntimes() {}

    /** The running JVM's own executable. */
    public static Path current() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /**
     * A Java 17 executable: Cassandra 5.0 dies on newer JVMs ({@code Policy.setPolicy}). Order:
     * {@code ERASURE_JAVA17_HOME}, the running JVM if it is 17, then {@code /usr/lib/jvm/*17*}.
     */
    public static Path java17() {
        String override = System.getenv("ERASURE_JAVA17_HOME");
        if (override != null && !override.isBlank()) {
            return Path.of(override, "bin", "java");
        }
        if (Runtime.version().feature() == 17) {
            return current();
        }
        return findUnder(Path.of("/usr/lib/jvm"))
                .orElseThrow(() -> new IllegalStateException("Cassandra 5.0 needs Java 17 and none was found: install "
                        + "openjdk-17-jdk-headless or set ERASURE_JAVA17_HOME to a Java 17 home"));
    }

    private static Optional<Path> findUnder(Path root) {
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(root)) {
            return homes.filter(p -> p.getFileName().toString().matches(".*-17(\\D.*)?|.*jdk-?17.*"))
                    .sorted(Comparator.comparing(Path::toString))
                    .map(p -> p.resolve("bin/java"))
                    .filter(Files::isExecutable)
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
