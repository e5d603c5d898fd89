package io.erasure.process;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * The classpath of a child JVM a service runs Cassandra tooling in (the SSTable writer, the SSTable reader): the one a
 * deployment names in a setting, checked for the classes the child needs, or where the setting is blank, the
 * runtime's own on this JVM's classpath ({@link RuntimeClasspath}: tests, the local platform).
 *
 * <p>A setting holds {@code File.pathSeparator}-separated jars, folders of classes, or {@code folder/*} for every jar
 * in a folder, as for {@code java -cp}.
 */
public final class ConfiguredClasspath {

    private ConfiguredClasspath() {}

    /**
     * The classpath to start the child on.
     *
     * @param configured the deployment's setting; null or blank for {@code runtime}'s on this JVM's classpath
     * @param property   the setting's name, named in every error
     * @param runtime    the runtime whose classpath file is used when nothing is configured
     * @param needs      what the child is, for the error without a classpath ("the bulk restore path needs the
     *                   SSTable writer's classpath")
     * @param required   class → what provides it; each must be on the classpath
     * @throws IllegalStateException naming {@code property} if there is no classpath, or it lacks a file or a class
     */
    public static String resolve(
            String configured, String property, String runtime, String needs, Map<String, String> required) {
        String sources = String.join(", ", required.values());
        if (configured == null || configured.isBlank()) {
            try {
                return RuntimeClasspath.of(runtime).asPath();
            } catch (IllegalStateException e) {
                throw new IllegalStateException(
                        needs + ": set " + property + " to " + sources + " with its dependencies (e.g. a folder of"
                                + " those jars as /opt/erasure/" + runtime + "/*); this JVM has no " + runtime
                                + " to fall back on (" + e.getMessage() + ")",
                        e);
            }
        }
        List<Path> entries = new ArrayList<>();
        for (String entry : configured.trim().split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                entries.addAll(expand(entry.trim(), property));
            }
        }
        List<String> missing = new ArrayList<>();
        required.forEach((className, source) -> {
            if (entries.stream().noneMatch(entry -> contains(entry, className))) {
                missing.add(className + " (" + source + ")");
            }
        });
        if (!missing.isEmpty()) {
            throw new IllegalStateException(property + " = '" + configured + "' lacks " + String.join(", ", missing)
                    + ": it must hold the " + runtime + " jar and its runtime dependencies (" + sources + "...)");
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
