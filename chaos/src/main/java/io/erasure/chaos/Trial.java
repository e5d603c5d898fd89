package io.erasure.chaos;

import io.erasure.chaos.ChaosStores.Live;
import io.erasure.chaos.Violation.Kind;
import io.erasure.local.demo.PlatformClient;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * One trial: fresh live data and backups, a run of each chaos dataset (approved by the operator when held), live
 * traffic rewriting some deletable rows while they are deleted, one fault (or two at once) at a random point, then
 * the invariants checked against the engines, a restore by run of everything the runs deleted, and the restore
 * checked the same way. A failed run is re-tried once by a new run, as an operator would; the trial counts it.
 */
final class Trial {

    static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);
    /** How long an aborted trial's runs may take to end before they are cancelled. */
    static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(3);

    static final Duration RESTORE_TIMEOUT = Duration.ofMinutes(4);
    /** How long a recovery interrupted by its service's death may still look alive before it must say it failed. */
    static final Duration INTERRUPTED_RESTORE_TIMEOUT = Duration.ofSeconds(90);
    /** The stages a fault can be aimed at, in the order a run passes them. */
    static final List<String> STATES = List.of(
            "PENDING",
            "AUDITING",
            "VALIDATING",
            "AWAITING_APPROVAL",
            "AUTHORIZED",
            "DELETING",
            "VERIFYING",
            "COMPLETED");

    private static final List<String> AIMS = List.of("AUDITING", "VALIDATING", "DELETING", "DELETING", "VERIFYING");
    private static final int RERUNS = 1;

    /** What a seed decides: the data's groups, the faults, the stage they aim at and the delay once it is seen. */
    record Plan(int trial, long seed, TrialData data, List<Fault> faults, String aim, long delayMillis) {
        static Plan of(int trial, long seed, List<Fault> forced) {
            Random random = new Random(seed);
            TrialData data = TrialData.plan(trial, random);
            List<Fault> faults = forced != null ? forced : Fault.pick(random);
            String aim = AIMS.get(random.nextInt(AIMS.size()));
            return new Plan(trial, seed, data, faults, aim, random.nextInt(3_000));
        }
    }

    /**
     * @param hitIn        the runs' states when the faults were injected
     * @param healSeconds  how long healing took (restart until healthy, outage, stall)
     * @param recoverSeconds from the injection until both runs had ended (0 when they had ended before)
     */
    record Result(
            Plan plan,
            String hitIn,
            double healSeconds,
            double recoverSeconds,
            int reruns,
            long deleted,
            List<Violation> violations) {}

    private final ChaosPlatform platform;
    private final ChaosStores stores;
    private final Plan plan;
    private final Map<String, List<String>> runs = new LinkedHashMap<>();
    private final List<Violation> aborted = new ArrayList<>();
    private String hitIn = "never";
    private double healSeconds;
    private long injectedAt;
    private int reruns;

    Trial(ChaosPlatform platform, Plan plan) {
        this.platform = platform;
        this.stores = platform.stores;
        this.plan = plan;
    }

    Result run() throws Exception {
        TrialData data = plan.data();
        stores.load(data);
        platform.backup(ChaosPlatform.SOURCE, "postgres", "members");
        platform.backup(ChaosPlatform.PROFILES, "cassandra", "profiles");
        platform.backup(ChaosPlatform.ORDERS, "postgres", "orders");
        stores.afterBackup(data);
        LiveWriter writer = new LiveWriter(stores, data);
        double recoverSeconds;
        try {
            for (String dataset : List.of(ChaosPlatform.PROFILES, ChaosPlatform.ORDERS)) {
                runs.put(dataset, new ArrayList<>(List.of(trigger(dataset))));
            }
            recoverSeconds = awaitRuns(writer);
        } finally {
            writer.close();
        }
        Checks checks = new Checks(data, Checks.Writes.of(writer));
        aborted.forEach(v -> checks.add(v.kind(), v.detail()));
        long profilesReported = reported(ChaosPlatform.PROFILES);
        long ordersReported = reported(ChaosPlatform.ORDERS);
        awaitLog(profilesReported + ordersReported);
        Live afterRuns = stores.read(data);
        checks.rows(afterRuns);
        checks.log(
                afterRuns,
                stores.loggedKeys(runs.get(ChaosPlatform.PROFILES), ChaosPlatform.PROFILES),
                stores.loggedKeys(runs.get(ChaosPlatform.ORDERS), ChaosPlatform.ORDERS),
                ChaosPlatform.PROFILES,
                ChaosPlatform.ORDERS);
        checks.receipts(afterRuns, profilesReported, ordersReported);
        restoreEveryRun(checks);
        checks.restored(afterRuns, stores.read(data));
        stores.clear(data);
        return new Result(
                plan,
                hitIn,
                healSeconds,
                recoverSeconds,
                reruns,
                profilesReported + ordersReported,
                checks.violations());
    }

    /**
     * After an aborted trial, leaves the platform as a trial expects to find it: every service running (one whose
     * restart failed is started again), this trial's runs ended (cancelled if they do not end within
     * {@link #SETTLE_TIMEOUT}), and its rows gone. Says what it did; never throws.
     */
    String settle() {
        List<String> done = new ArrayList<>();
        try {
            List<String> restarted = platform.running.restartExited();
            if (!restarted.isEmpty()) {
                done.add("restarted " + restarted);
            }
            long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
            for (String dataset : runs.keySet()) {
                String runId = last(dataset);
                String state = state(runId);
                while (!ChaosPlatform.FINAL.contains(state) && System.nanoTime() < deadline) {
                    Thread.sleep(1_000);
                    state = state(runId);
                }
                if (!ChaosPlatform.FINAL.contains(state)) {
                    cancel(runId);
                    done.add("cancelled " + runId);
                }
            }
            stores.clear(plan.data());
            done.add("rows cleared");
        } catch (Exception e) {
            done.add("failed: " + e);
        }
        return String.join(", ", done);
    }

    /** Polls both runs to their end, approving, re-trying a failed one once, and injecting the faults on the way. */
    private double awaitRuns(LiveWriter writer) throws Exception {
        boolean runFault = plan.faults().stream().noneMatch(Fault::hitsRestore);
        boolean injected = !runFault;
        long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
        long aimSeenAt = 0;
        while (true) {
            Map<String, String> states = new LinkedHashMap<>();
            for (var entry : runs.entrySet()) {
                states.put(entry.getKey(), step(entry.getKey(), entry.getValue()));
            }
            int furthest =
                    states.values().stream().mapToInt(STATES::indexOf).max().orElse(-1);
            if (!writer.started() && furthest >= STATES.indexOf("AWAITING_APPROVAL")) {
                writer.start();
            }
            boolean ended = states.values().stream().allMatch(ChaosPlatform.FINAL::contains);
            if (!injected && (furthest >= STATES.indexOf(plan.aim()) || ended)) {
                if (aimSeenAt == 0) {
                    aimSeenAt = System.nanoTime();
                }
                if (ended || System.nanoTime() - aimSeenAt >= plan.delayMillis() * 1_000_000L) {
                    inject(states);
                    injected = true;
                    continue;
                }
            }
            if (ended && injected) {
                for (var entry : states.entrySet()) {
                    if (!entry.getValue().equals("COMPLETED")) {
                        aborted.add(new Violation(
                                Kind.RUN_NOT_COMPLETED,
                                entry.getKey() + " run " + last(entry.getKey()) + " ended " + entry.getValue() + ": "
                                        + failureReason(last(entry.getKey()))));
                    }
                }
                return runFault && injectedAt > 0 && !hitIn.startsWith("after")
                        ? (System.nanoTime() - injectedAt) / 1e9
                        : 0;
            }
            if (System.nanoTime() > deadline) {
                for (var entry : states.entrySet()) {
                    if (!ChaosPlatform.FINAL.contains(entry.getValue())) {
                        aborted.add(new Violation(
                                Kind.RUN_NOT_COMPLETED,
                                entry.getKey() + " run " + last(entry.getKey()) + " still " + entry.getValue()
                                        + " after " + RUN_TIMEOUT.toMinutes() + " minutes"));
                        cancel(last(entry.getKey()));
                    }
                }
                return injectedAt == 0 ? 0 : (System.nanoTime() - injectedAt) / 1e9;
            }
            Thread.sleep(250);
        }
    }

    /** One poll of a dataset's current run: approves it when held, re-tries it once when it failed; its state. */
    private String step(String dataset, List<String> ids) {
        String runId = ids.get(ids.size() - 1);
        String state = state(runId);
        if (state.equals("AWAITING_APPROVAL")) {
            attempt(() -> platform.operator.post("/api/runs/" + runId + "/approve", null));
        } else if (state.equals("FAILED") && ids.size() <= RERUNS) {
            String again = attempt(() -> trigger(dataset));
            if (again != null) {
                ids.add(again);
                reruns++;
                return "PENDING";
            }
        }
        return state;
    }

    private void inject(Map<String, String> states) throws InterruptedException {
        boolean ended = states.values().stream().allMatch(ChaosPlatform.FINAL::contains);
        hitIn = (ended ? "after the runs: " : "") + states.values();
        long started = System.nanoTime();
        injectedAt = started;
        Fault.injectAll(plan.faults(), platform);
        healSeconds = (System.nanoTime() - started) / 1e9;
    }

    /** Waits until the log holds a record per reported row and stops growing (ingestion runs behind the deletes). */
    private void awaitLog(long reported) throws InterruptedException, SQLException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        long previous = -1;
        while (System.nanoTime() < deadline) {
            long logged = total(stores.loggedKeys(runs.get(ChaosPlatform.PROFILES), ChaosPlatform.PROFILES))
                    + total(stores.loggedKeys(runs.get(ChaosPlatform.ORDERS), ChaosPlatform.ORDERS));
            if (logged >= reported && logged == previous) {
                return;
            }
            previous = logged;
            Thread.sleep(2_000);
        }
    }

    private static long total(Map<String, Integer> counts) {
        return counts.values().stream().mapToLong(Integer::longValue).sum();
    }

    /** The rows the dataset's runs report deleted: their receipts' count (the run's counts where none was issued). */
    private long reported(String dataset) {
        long deleted = 0;
        for (String runId : runs.get(dataset)) {
            PlatformClient.Answer receipt = attempt(() -> platform.operator.get("/api/runs/" + runId + "/receipt"));
            if (receipt != null && receipt.ok()) {
                deleted += receipt.body().path("deletion").path("deleted").asLong(0);
            } else {
                PlatformClient.Answer run = attempt(() -> platform.operator.get("/api/runs/" + runId));
                deleted += run == null
                        ? 0
                        : run.body()
                                .path("counts")
                                .path("deletion")
                                .path("deleted")
                                .asLong(0);
            }
        }
        return deleted;
    }

    /** Restores every run of the trial by run (the recovery kill, if planned, hits the first one). */
    private void restoreEveryRun(Checks checks) throws InterruptedException {
        boolean killPending = plan.faults().stream().anyMatch(Fault::hitsRestore);
        for (var entry : runs.entrySet()) {
            for (String runId : entry.getValue()) {
                String id = requestRestore(runId);
                if (killPending) {
                    killPending = false;
                    Thread.sleep(plan.delayMillis() / 3);
                    hitIn = "restore of " + entry.getKey();
                    long started = System.nanoTime();
                    injectedAt = started;
                    Fault.injectAll(plan.faults(), platform);
                    healSeconds = (System.nanoTime() - started) / 1e9;
                    String interrupted = id;
                    JsonNode view = awaitRestore(id, INTERRUPTED_RESTORE_TIMEOUT);
                    if (view == null || !view.path("status").asString().equals("COMPLETED")) {
                        // the request died with the service: it must say so (not stay RUNNING); the operator asks again
                        String status = view == null
                                ? "unanswered"
                                : view.path("status").asString();
                        if (!status.equals("FAILED")) {
                            checks.add(
                                    Kind.RESTORE_ABANDONED,
                                    "restore " + interrupted + " of run " + runId + " is still "
                                            + status + " " + INTERRUPTED_RESTORE_TIMEOUT.toSeconds()
                                            + " s after its service"
                                            + " was killed");
                        }
                        id = requestRestore(runId);
                    }
                }
                JsonNode view = awaitRestore(id, RESTORE_TIMEOUT);
                String status =
                        view == null ? "unanswered" : view.path("status").asString();
                if (!status.equals("COMPLETED")) {
                    checks.add(
                            Kind.RESTORE_NOT_COMPLETED,
                            "restore of run " + runId + " (" + entry.getKey() + ") ended " + status
                                    + (view == null
                                            ? ""
                                            : ": " + view.path("failure").asString("")));
                } else if (view.path("failed").asLong(0) > 0) {
                    checks.add(
                            Kind.RESTORE_NOT_COMPLETED,
                            "restore of run " + runId + " (" + entry.getKey() + ") completed" + " with "
                                    + view.path("failed").asLong() + " records failed");
                }
            }
        }
    }

    private String requestRestore(String runId) {
        return platform.recovery
                .post(
                        "/api/recoveries",
                        Map.of(
                                "scope",
                                Map.of("type", "run", "runId", runId),
                                "dryRun",
                                false,
                                "reason",
                                "chaos trial " + plan.trial() + ": undo run " + runId))
                .require("requesting the restore of run " + runId)
                .path("id")
                .asString();
    }

    private JsonNode awaitRestore(String id, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode view = null;
        while (System.nanoTime() < deadline) {
            PlatformClient.Answer answer = attempt(() -> platform.recovery.get("/api/recoveries/" + id));
            if (answer != null && answer.ok()) {
                view = answer.body();
                String status = view.path("status").asString();
                if (!status.equals("PENDING") && !status.equals("RUNNING")) {
                    return view;
                }
            }
            Thread.sleep(500);
        }
        return view;
    }

    private String trigger(String dataset) {
        return platform.owner
                .post("/api/datasets/" + dataset + "/runs", null)
                .require("triggering a run of " + dataset)
                .path("id")
                .asString();
    }

    private String state(String runId) {
        PlatformClient.Answer answer = attempt(() -> platform.operator.get("/api/runs/" + runId));
        return answer != null && answer.ok() ? answer.body().path("state").asString() : "UNREACHABLE";
    }

    private String failureReason(String runId) {
        PlatformClient.Answer answer = attempt(() -> platform.operator.get("/api/runs/" + runId));
        return answer != null && answer.ok()
                ? answer.body().path("failureReason").asString("")
                : "";
    }

    private void cancel(String runId) {
        attempt(() ->
                platform.operator.post("/api/runs/" + runId + "/cancel", Map.of("reason", "chaos trial timed out")));
    }

    private String last(String dataset) {
        List<String> ids = runs.get(dataset);
        return ids.get(ids.size() - 1);
    }

    /** Calls the platform while a fault may have one of its services down: null when it cannot be reached. */
    private static <T> T attempt(Supplier<T> call) {
        try {
            return call.get();
        } catch (IllegalStateException unreachable) {
            return null;
        }
    }
}
