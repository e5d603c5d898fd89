package io.erasure.store.cassandra.bulk;

import io.erasure.process.RuntimeClasspath;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * The classpath of the SSTable writer's child JVM: the {@code runtime-cassandra} jar (the writer's main class),
 * {@code process-guard} (the child dies with its parent) and {@code cassandra-all} with its dependencies.
 *
 * <p>A deployed service has none of them on its own classpath (no service depends on cassandra-all): its
 * deployment ships them in a folder and names it, e.g. {@code /opt/erasure/sstable-writer/*} ({@code folder/*}
 * means every jar in the folder, as for {@code java -cp}). Such a folder is made with
 * <pre>
 * ./mvnw -q -pl local-infra/runtimes/runtime-cassandra -am install -DskipTests
 * ./mvnw -q -f local-infra/runtimes/runtime-cassandra/pom.xml dependency:copy-dependencies -DincludeScope=runtime \
 *   -DoutputDirectory=target/sstable-writer
 * cp local-infra/runtimes/runtime-cassandra/target/runtime-cassandra-*.jar \
 *   local-infra/runtimes/runtime-cassandra/target/sstable-writer/
 * </pre>
 * Where {@code runtime-cassandra} is on this JVM's classpath (tests, the local platform), its build-time
 * classpath file is used when nothing is configured.
 */
public final class WriterClasspath {

    /** The runtime whose classpath file is used when nothing is configured. */
    public static final String RUNTIME = "runtime-cassandra";

    /** Class → what provides it; each must be on the writer's classpath. */
    private static final Map<String, String> REQUIRED = new LinkedHashMap<>();

    static {
        REQUIRED.put(SSTableWriterProcess.MAIN_CLASS, "the runtime-cassandra jar");
        REQUIRED.put("io.erasure.infra.guard.OrphanGuard", "the process-guard jar");
        REQUIRED.put("org.apache.cassandra.io.sstable.CQLSSTableWriter", "cassandra-all");
    }

    private WriterClasspath() {}

    /**
     * The classpath to start the writer on.
     *
     * @param configured the deployment's classpath ({@code File.pathSeparator}-separated jars, folders of classes,
     *                   or {@code folder/*}); null or blank for {@code runtime-cassandra}'s, found on this JVM's
     *                   classpath
     * @param property   the setting {@code configured} comes from, named in every error
     * @throws IllegalStateException naming {@code property} if there is no classpath, or it lacks a file or a class
     */
    public static String resolve(String configured, String property) {
        if (configured == null || configured.isBlank()) {
            try {
                return RuntimeClasspath.of(RUNTIME).asPath();
            } catch (IllegalStateException e) {
                throw new IllegalStateException(
                        "the bulk restore path needs the SSTable writer's classpath: set " + property
                                + " to the runtime-cassandra jar, process-guard and cassandra-all with its dependencies"
                                + " (e.g. a folder of those jars as /opt/erasure/sstable-writer/*);"
                                + " this JVM has no " + RUNTIME
                                + " to fall back on ("
                                + e.getMessage() + ")",
                        e);
            }
        }
        List<Path> entries = new ArrayList<>();
        for (String entry : configured.trim().split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            entries.addAll(expand(entry.trim(), property));
        }
        List<String> missing = new ArrayList<>();
        REQUIRED.forEach((className, source) -> {
            if (entries.stream().noneMatch(entry -> contains(entry, className))) {
                missing.add(className + " (" + source + ")");
            }
        });
        if (!missing.isEmpty()) {
            throw new IllegalStateException(property + " = '" + configured + "' lacks " + String.join(", ", missing)
                    + ": it must hold the runtime-cassandra jar and its runtime dependencies (process-guard,"
                    + " cassandra-all...)");
        }
        return configured.trim();
    }

    private static List<Path> expand(String entry, String property) {
        if (entry.equals("*") || entry.endsWith(File.separator + "*") || entry.endsWith("/*")) {
            Path folder = Path.of(
                    entry.substring(0, entry.length() - 1).isEmpty() ? "." : entry.substring(0, entry.length() - 1));
            if (!Files.isDirectory(folder)) {
                throw new IllegalStateException(
                        property + " names the folder " + folder.toAbsolutePath() + ", which does not exist");
            }
            try (Stream<Path> files = Files.list(folder)) {
                return files.filter(f -> f.getFileName()
                                .toString()
                                .toLowerCase(Locale.ROOT)
                                .endsWith(".jar"))
                        .sorted()
                        .toList();
            } catch (IOException e) {
                throw new IllegalStateException(
                        property + " names the folder " + folder.toAbsolutePath() + ", which cannot be read: "
                                + e.getMessage(),
                        e);
            }
        }
        Path path = Path.of(entry);
        if (!Files.exists(path)) {
            throw new IllegalStateException(property + " names " + path.toAbsolutePath() + ", which does not exist");
        }
        return List.of(path);
    }

    private static boolean contains(Path entry, String className) {
        String resource = className.replace('.', '/') + ".class";
        if (Files.isDirectory(entry)) {
            return Files.exists(entry.resolve(resource));
        }
        try (ZipFile jar = new ZipFile(entry.toFile())) {
            return jar.getEntry(resource) != null;
        } catch (IOException e) {
            return false;
        }
    }
}
