package io.erasure.local;

import io.erasure.infra.EngineFolder;
import io.erasure.infra.PrometheusEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Prometheus beside the local platform, when Debian's {@code prometheus} is installed: it scrapes every service as
 * Prometheus' own user ({@code metrics}, the METRICS role of the local profile) and evaluates the chart's alert rules
 * ({@code helm/erasure/rules/erasure-rules.yaml}), so the platform's metrics keep their history and its alerts can be
 * watched at {@value #URL}/alerts. Without it the platform runs the same, and says how to get it.
 */
final class LocalMonitoring {

    static final int PORT = 19090;
    static final String URL = "http://127.0.0.1:19090";
    static final String RULES = "helm/erasure/rules/erasure-rules.yaml";

    private LocalMonitoring() {}

    /** Starts Prometheus under {@code root}/engines/prometheus if it is installed; empty (and why) if it is not. */
    static Optional<PrometheusEngine> startIfInstalled(Path project, Path root, List<LocalPlatform.Service> services) {
        Optional<Path> binary = PrometheusEngine.installed();
        if (binary.isEmpty()) {
            System.out.println("Prometheus is not installed, so metrics keep no history here: apt-get install"
                    + " prometheus, and ./erasure-local starts it (" + URL + ")");
            return Optional.empty();
        }
        Path folder = root.resolve("engines/prometheus");
        Path config = folder.resolve("prometheus.yml");
        try {
            Files.createDirectories(folder);
            Files.writeString(config, config(project.resolve(RULES), services));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println("Starting Prometheus (" + URL + ", alerts at " + URL + "/alerts) ...");
        return Optional.of(PrometheusEngine.start(PORT, EngineFolder.persistent(folder), binary.get(), config));
    }

    /** Scrape jobs for {@code services} (one target each, labelled {@code service}), and the alert rules. */
    static String config(Path rules, List<LocalPlatform.Service> services) {
        StringBuilder yaml = new StringBuilder("""
                # written by ./erasure-local (LocalMonitoring) at every start
                global:
                  scrape_interval: 15s
                  evaluation_interval: 15s
                rule_files:
                  - "%s"
                scrape_configs:
                  - job_name: erasure
                    metrics_path: /actuator/prometheus
                    basic_auth:
                      username: metrics
                      password: metrics
                    static_configs:
                """.formatted(rules.toAbsolutePath()));
        for (LocalPlatform.Service service : services) {
            yaml.append("      - targets: [\"127.0.0.1:")
                    .append(service.port())
                    .append("\"]\n        labels:\n          service: ")
                    .append(service.module())
                    .append('\n');
        }
        return yaml.toString();
    }
}
