package io.erasure.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The alerts, SLO rules and Grafana dashboards the chart ships ({@code helm/erasure/rules}, {@code
 * helm/erasure/dashboards}) checked by a real Prometheus' own tool: {@code promtool} parses every rule and every
 * dashboard query, and runs the rules' unit tests (each alert fires on the series that should raise it and stays quiet
 * on the others). Every metric they name must be one docs/metrics.md lists, so a renamed metric cannot leave an alert
 * that never fires.
 *
 * <p>{@code promtool} comes with Debian's {@code prometheus} package, which {@code .ci/run} installs.
 */
class PrometheusRulesTest {

    private static final Pattern METRIC = Pattern.compile("(?<![:\\w])erasure_[a-z0-9_]+");
    private static final Pattern HISTOGRAM_SERIES = Pattern.compile("(_seconds)_(bucket|count|sum)$");

    private final Path root = HelmChartTest.projectRoot();
    private final Path rules = root.resolve("helm/erasure/rules/erasure-rules.yaml");

    @Test
    void theRulesParseAndPassTheirUnitTests() throws Exception {
        assertThat(promtool("check", "rules", rules.toString())).contains("SUCCESS");
        assertThat(promtool(
                        "test",
                        "rules",
                        root.resolve("helm/erasure/rules/erasure-rules.test.yaml")
                                .toString()))
                .contains("SUCCESS");
    }

    @Test
    void everyDashboardQueryParses(@TempDir Path work) throws Exception {
        List<String> queries = dashboardQueries();
        assertThat(queries).hasSizeGreaterThan(20);
        StringBuilder file = new StringBuilder("groups:\n  - name: dashboards\n    rules:\n");
        for (int i = 0; i < queries.size(); i++) {
            // Grafana's variables, as it would fill them in
            String query = queries.get(i)
                    .replace("$__rate_interval", "5m")
                    .replace("$store", ".*")
                    .replace("$dataset", ".*");
            file.append("      - record: dashboard:query_")
                    .append(i)
                    .append("\n        expr: '")
                    .append(query.replace("'", "''"))
                    .append("'\n");
        }
        Path asRules = Files.writeString(work.resolve("dashboards.yaml"), file);

        assertThat(promtool("check", "rules", asRules.toString())).contains("SUCCESS");
    }

    @Test
    void everyMetricTheRulesAndDashboardsNameIsDocumented() throws Exception {
        String documented = Files.readString(root.resolve("docs/metrics.md"));
        Set<String> named = new TreeSet<>();
        for (String query : rulesQueries()) {
            named.addAll(metricsIn(query));
        }
        for (String query : dashboardQueries()) {
            named.addAll(metricsIn(query));
        }

        assertThat(named).contains("erasure_runs_oldest_seconds", "erasure_deletion_throttle_decisions_total");
        assertThat(named)
                .as("metrics named by rules or dashboards but missing from docs/metrics.md's inventory")
                .allSatisfy(metric -> assertThat(documented).contains("`" + metric + "`"));
    }

    @Test
    void theChartShipsTheRulesAndTheDashboardsAsTheyAre() throws Exception {
        String rule = Files.readString(root.resolve("helm/erasure/templates/prometheusrule.yaml"));
        String dashboards = Files.readString(root.resolve("helm/erasure/templates/grafana-dashboards.yaml"));

        assertThat(rule).contains(".Values.prometheusRule.enabled").contains(".Files.Get \"rules/erasure-rules.yaml\"");
        assertThat(dashboards)
                .contains(".Values.grafanaDashboards.enabled")
                .contains(".Files.Glob \"dashboards/*.json\"");
        try (Stream<Path> files = Files.list(root.resolve("helm/erasure/dashboards"))) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder("platform-overview.json", "per-store.json", "per-dataset.json");
        }
    }

    /** The metrics a PromQL query reads, by the names docs/metrics.md gives them (a histogram by its base name). */
    private static Set<String> metricsIn(String query) {
        Set<String> found = new TreeSet<>();
        Matcher matcher = METRIC.matcher(query);
        while (matcher.find()) {
            found.add(HISTOGRAM_SERIES.matcher(matcher.group()).replaceFirst("$1"));
        }
        return found;
    }

    @SuppressWarnings("unchecked")
    private List<String> rulesQueries() throws IOException {
        Map<String, Object> file;
        try (InputStream in = Files.newInputStream(rules)) {
            file = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
        }
        List<String> queries = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                queries.add(String.valueOf(rule.get("expr")));
            }
        }
        return queries;
    }

    private List<String> dashboardQueries() throws IOException {
        JsonMapper json = JsonMapper.builder().build();
        List<String> queries = new ArrayList<>();
        try (Stream<Path> files = Files.list(root.resolve("helm/erasure/dashboards"))) {
            for (Path file : files.sorted().toList()) {
                for (JsonNode panel : json.readTree(file.toFile()).path("panels")) {
                    for (JsonNode target : panel.path("targets")) {
                        queries.add(target.path("expr").asString());
                    }
                }
            }
        }
        return queries;
    }

    /** Runs {@code promtool} and returns what it printed; fails with its output when it fails. */
    private static String promtool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add("promtool");
        command.addAll(List.of(arguments));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError(
                    "promtool is not on the PATH: install Debian's prometheus package"
                            + " (apt-get install --no-install-recommends prometheus), as .ci/run does",
                    e);
        }
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String printed = new String(output, StandardCharsets.UTF_8);
        assertThat(process.exitValue())
                .as(String.join(" ", command) + ":\n" + printed)
                .isZero();
        return printed;
    }
}
