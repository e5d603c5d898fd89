package io.erasure.process;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The classpath of an engine's child JVM, written at build time by the {@code runtime-*} modules into
 * {@code META-INF/erasure/<runtime>.classpath} (see local-infra/runtimes/pom.xml).
 */
public record RuntimeClasspath(String runtime, List<Path> entries) {

    public RuntimeClasspath {
        entries = List.copyOf(entries);
    }

    public static RuntimeClasspath of(String runtime) {
        String resource = "META-INF/erasure/" + runtime + ".classpath";
        URL url = RuntimeClasspath.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IllegalStateException("no " + resource + " on the classpath: build the engine runtimes first ("
                    + "./mvnw install -pl local-infra/runtimes -am)");
        }
        try (InputStream in = url.openStream()) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            List<Path> entries = new ArrayList<>();
            // the runtime's own jar (or classes folder) holds its entry points, e.g. the engine host
            entries.add(ownArtifact(url, resource));
            Arrays.stream(text.split(File.pathSeparator))
                    .filter(s -> !s.isBlank())
                    .map(Path::of)
                    .forEach(entries::add);
            List<Path> missing = entries.stream().filter(p -> !Files.exists(p)).toList();
            if (!missing.isEmpty()) {
                throw new IllegalStateException(runtime + " classpath names files that are gone (" + missing.get(0)
                        + "...): rebuild the engine runtimes (./mvnw install -pl local-infra/runtimes -am)");
            }
            return new RuntimeClasspath(runtime, entries);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path ownArtifact(URL url, String resource) {
        String spec = url.toString();
        try {
            if (spec.startsWith("jar:")) {
                return Path.of(new URI(spec.substring(4, spec.indexOf("!/"))));
            }
            Path file = Path.of(url.toURI());
            for (int i = 0; i < resource.split("/").length; i++) {
                file = file.getParent();
            }
            return file;
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the runtime artifact of " + spec, e);
        }
    }

    public String asPath() {
        return String.join(
                File.pathSeparator, entries.stream().map(Path::toString).toList());
    }
}
