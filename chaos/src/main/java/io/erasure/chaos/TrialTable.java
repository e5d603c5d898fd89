package io.erasure.chaos;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The trials as tables: by fault, by violation kind (with the seeds that replay each), then each trial on a line. */
final class TrialTable {

    private TrialTable() {}

    static String render(List<Trial.Result> results) {
        StringBuilder out = new StringBuilder();
        long violated = results.stream().filter(r -> !r.violations().isEmpty()).count();
        out.append(String.format(
                Locale.ROOT,
                "%d trials, %d with a violation, %d runs re-tried after failing%n%n",
                results.size(),
                violated,
                results.stream().mapToInt(Trial.Result::reruns).sum()));

        out.append("| fault | trials | with a violation | runs re-tried | heal s, median (max) | runs ended s after it,"
                + " median (max) |\n");
        out.append("|---|---|---|---|---|---|\n");
        Map<String, List<Trial.Result>> byFault = new TreeMap<>();
        for (Trial.Result result : results) {
            String key = result.plan().faults().stream().map(Fault::name).collect(Collectors.joining(" + "));
            byFault.computeIfAbsent(key, k -> new ArrayList<>()).add(result);
        }
        byFault.forEach((fault, trials) -> out.append(String.format(
                Locale.ROOT,
                "| %s | %d | %d | %d | %s | %s |%n",
                fault,
                trials.size(),
                trials.stream().filter(r -> !r.violations().isEmpty()).count(),
                trials.stream().mapToInt(Trial.Result::reruns).sum(),
                medianMax(trials.stream().mapToDouble(Trial.Result::healSeconds).toArray()),
                medianMax(trials.stream()
                        .mapToDouble(Trial.Result::recoverSeconds)
                        .toArray()))));

        out.append("\n| invariant violated | times | trials (seed to replay) |\n|---|---|---|\n");
        Map<Violation.Kind, List<String>> byKind = new EnumMap<>(Violation.Kind.class);
        Map<Violation.Kind, Integer> counts = new EnumMap<>(Violation.Kind.class);
        for (Trial.Result result : results) {
            for (Violation violation : result.violations()) {
                counts.merge(violation.kind(), 1, Integer::sum);
                List<String> seeds = byKind.computeIfAbsent(violation.kind(), k -> new ArrayList<>());
                String seed = "#" + result.plan().trial() + " (" + result.plan().seed() + ")";
                if (!seeds.contains(seed)) {
                    seeds.add(seed);
                }
            }
        }
        for (Violation.Kind kind : Violation.Kind.values()) {
            out.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %s |%n",
                    kind,
                    counts.getOrDefault(kind, 0),
                    String.join(", ", byKind.getOrDefault(kind, List.of()))));
        }

        out.append("\n| # | seed | fault | aimed at | hit while | deleted | violations"
                + " |\n|---|---|---|---|---|---|---|\n");
        for (Trial.Result result : results) {
            out.append(String.format(
                    Locale.ROOT,
                    "| %d | %d | %s | %s | %s | %d | %s |%n",
                    result.plan().trial(),
                    result.plan().seed(),
                    result.plan().faults(),
                    result.plan().aim() + " +" + result.plan().delayMillis() + " ms",
                    result.hitIn(),
                    result.deleted(),
                    result.violations().isEmpty()
                            ? "none"
                            : result.violations().stream()
                                            .limit(3)
                                            .map(Violation::toString)
                                            .collect(Collectors.joining("; "))
                                    + (result.violations().size() > 3
                                            ? " (+" + (result.violations().size() - 3) + " more)"
                                            : "")));
        }
        return out.toString();
    }

    /** Every violation of every trial, one per line, for the report file. */
    static String allViolations(List<Trial.Result> results) {
        StringBuilder out = new StringBuilder("\n## Every violation\n\n");
        for (Trial.Result result : results) {
            for (Violation violation : result.violations()) {
                out.append("- #")
                        .append(result.plan().trial())
                        .append(" (")
                        .append(result.plan().seed())
                        .append(") ")
                        .append(violation)
                        .append('\n');
            }
        }
        return out.toString();
    }

    private static String medianMax(double[] values) {
        if (values.length == 0) {
            return "-";
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double median = sorted.length % 2 == 1
                ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        return String.format(Locale.ROOT, "%.1f (%.1f)", median, sorted[sorted.length - 1]);
    }
}
