package io.erasure.chaos;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Runs chaos trials against a fresh local platform and prints their table; exits 1 if any trial broke an invariant.
 * {@code chaos/trials} runs it from a built checkout. System properties:
 * <ul>
 *   <li>{@code chaos.trials} (default 50), {@code chaos.seed} (default random; printed): trial i's seed is the i-th
 *       of a {@link Random} seeded with it;</li>
 *   <li>{@code chaos.replay=<trial seed>}: runs that one trial again (same data groups, faults, aim and delay);</li>
 *   <li>{@code chaos.faults=KILL_DELETION,KAFKA_CRASH}: trial i gets the i-th fault of the list (cycling) instead of a
 *       random one;</li>
 *   <li>{@code chaos.report} (default {@code chaos/target/chaos-report.md}): where the table is also written.</li>
 * </ul>
 */
public final class ChaosMain {

    private ChaosMain() {}

    /** What to run: how many trials, from which seed, with which forced faults (null: random). */
    record Settings(int trials, long seed, Long replay, List<Fault> faults) {

        static Settings fromSystemProperties() {
            String faults = System.getProperty("chaos.faults", "");
            List<Fault> forced = faults.isBlank()
                    ? null
                    : Stream.of(faults.split(","))
                            .map(String::trim)
                            .map(Fault::valueOf)
                            .toList();
            long seed = Long.getLong("chaos.seed", new Random().nextLong());
            return new Settings(Integer.getInteger("chaos.trials", 50), seed, Long.getLong("chaos.replay"), forced);
        }

        List<Trial.Plan> plans() {
            List<Trial.Plan> plans = new ArrayList<>();
            if (replay != null) {
                plans.add(Trial.Plan.of(0, replay, null));
                return plans;
            }
            Random seeds = new Random(seed);
            for (int i = 0; i < trials; i++) {
                plans.add(Trial.Plan.of(
                        i, seeds.nextLong(), faults == null ? null : List.of(faults.get(i % faults.size()))));
            }
            return plans;
        }
    }

    public static void main(String[] args) throws Exception {
        Path project = Path.of(System.getProperty("chaos.project", "")).toAbsolutePath();
        Settings settings = Settings.fromSystemProperties();
        List<Trial.Result> results = run(project, project.resolve("chaos/target/chaos-platform"), settings, System.out);
        String table = TrialTable.render(results);
        System.out.println();
        System.out.println(table);
        Path report = Path.of(System.getProperty(
                "chaos.report", project.resolve("chaos/target/chaos-report.md").toString()));
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, "seed " + settings.seed() + "\n\n" + table + TrialTable.allViolations(results));
        System.out.println("Written to " + report);
        System.exit(results.stream().allMatch(r -> r.violations().isEmpty()) ? 0 : 1);
    }

    /** Starts the platform under {@code root} (emptied first), runs the trials one after another, stops it. */
    static List<Trial.Result> run(Path project, Path root, Settings settings, PrintStream out) throws Exception {
        deleteTree(root);
        out.println(
                "Chaos: seed " + settings.seed() + (settings.replay() != null ? ", replaying " + settings.replay() : "")
                        + "; starting the platform ...");
        List<Trial.Result> results = new ArrayList<>();
        try (ChaosPlatform platform = ChaosPlatform.start(project, root)) {
            for (Trial.Plan plan : settings.plans()) {
                long started = System.nanoTime();
                out.printf(
                        "Chaos trial %d (seed %d): %s aimed at %s +%d ms ...%n",
                        plan.trial(), plan.seed(), plan.faults(), plan.aim(), plan.delayMillis());
                Trial.Result result;
                Trial trial = new Trial(platform, plan);
                try {
                    result = trial.run();
                } catch (Exception | AssertionError e) {
                    // the next trial starts from a whole platform, its own rows and no run of this one still going
                    out.println("  aborted (" + e + "); settling: " + trial.settle());
                    // counted, and the next trials go on: whether the platform recovers is what they then show
                    result = new Trial.Result(
                            plan,
                            "aborted",
                            0,
                            0,
                            0,
                            0,
                            List.of(new Violation(Violation.Kind.TRIAL_ABORTED, String.valueOf(e))));
                }
                results.add(result);
                out.printf(
                        "  hit while %s; healed in %.1f s; %d deleted; %s (%.0f s)%n",
                        result.hitIn(),
                        result.healSeconds(),
                        result.deleted(),
                        result.violations().isEmpty()
                                ? "no violation"
                                : result.violations().size() + " violations, the first: "
                                        + result.violations()
                                                .subList(
                                                        0,
                                                        Math.min(
                                                                5,
                                                                result.violations()
                                                                        .size())),
                        (System.nanoTime() - started) / 1e9);
            }
        }
        return results;
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
