package io.erasure.infra.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/** Finds the {@code java} executable a child JVM must run on. */
public final class JavaRuntimes {

    private JavaRuntimes() {
    }

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
