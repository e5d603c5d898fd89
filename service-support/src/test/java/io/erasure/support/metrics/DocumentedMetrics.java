package io.erasure.support.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metrics a service exposes, as Prometheus scrapes them, checked against docs/metrics.md's inventory: a service's
 * test registers its meters in a Prometheus registry and hands the scrape here, so a metric added without being
 * documented, or renamed under the alerts that read it, fails the build.
 */
public final class DocumentedMetrics {

    private static final Pattern FAMILY = Pattern.compile("(?m)^# TYPE (erasure_[a-z0-9_]+) (\\w+)$");

    private DocumentedMetrics() {}

    /**
     * The {@code erasure_*} metrics of a Prometheus text scrape by the names docs/metrics.md gives them: counters with
     * {@code _total}, histograms (timers) by their family name, which covers their {@code _max}.
     */
    public static Set<String> of(String scrape) {
        Map<String, String> types = new TreeMap<>();
        Matcher family = FAMILY.matcher(scrape);
        while (family.find()) {
            types.put(family.group(1), family.group(2));
        }
        Set<String> names = new TreeSet<>();
        types.forEach((name, type) -> {
            if (type.equals("counter")) {
                names.add(name.endsWith("_total") ? name : name + "_total");
            } else if (!(name.endsWith("_max") && "histogram".equals(types.get(name.replaceFirst("_max$", ""))))) {
                names.add(name); // a timer's _max gauge is part of the timer
            }
        });
        return names;
    }

    /** Fails naming every {@code erasure_*} metric of {@code scrape} that docs/metrics.md does not list. */
    public static void assertAllDocumented(String scrape) {
        String documented = inventory();
        Set<String> exposed = of(scrape);
        assertThat(exposed).as("the scrape's erasure_* metrics").isNotEmpty();
        assertThat(exposed.stream().filter(metric -> !documented.contains("| `" + metric + "` |")))
                .as("metrics a service exposes but docs/metrics.md does not list")
                .isEmpty();
    }

    private static String inventory() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path docs = dir.resolve("docs/metrics.md");
            if (Files.exists(docs) && Files.exists(dir.resolve("pom.xml"))) {
                try {
                    return Files.readString(docs);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException(
                "no docs/metrics.md above " + Path.of("").toAbsolutePath());
    }
}
