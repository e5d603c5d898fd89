package io.erasure.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Debian's Prometheus ({@code apt-get install prometheus}), when it is installed: it is not a Maven artifact, so it is
 * optional here, and nothing but the local platform's metrics history and the alerts it evaluates depends on it. It
 * runs in the {@code runtime-host} child JVM like the other hosted engines, which stops it with the platform.
 */
public final class PrometheusEngine extends HostedEngine {

    private static final List<Path> BINARIES =
            List.of(Path.of("/usr/bin/prometheus"), Path.of("/usr/local/bin/prometheus"));

    private PrometheusEngine(int port, EngineFolder folder, Path binary, Path config) {
        super("prometheus", port, folder, List.of(binary.toString(), config.toString()));
    }

    /** The installed {@code prometheus} binary, if there is one. */
    public static Optional<Path> installed() {
        return Stream.concat(
                        Stream.ofNullable(System.getenv("PATH"))
                                .flatMap(path -> Stream.of(path.split(":")))
                                .map(dir -> Path.of(dir, "prometheus")),
                        BINARIES.stream())
                .filter(Files::isExecutable)
                .findFirst();
    }

    /**
     * Starts {@code binary} on {@code port} with {@code config} (scrape jobs, rule files), its data in {@code folder}.
     */
    public static PrometheusEngine start(int port, EngineFolder folder, Path binary, Path config) {
        return new PrometheusEngine(port, folder, binary, config);
    }

    /** Where its HTTP API answers, e.g. {@code http://127.0.0.1:19090}. */
    public String url() {
        return "http://" + host() + ":" + port();
    }

    @Override
    public Map<String, String> springProperties() {
        return Map.of();
    }
}
