package io.erasure.local.bench;

import io.erasure.local.demo.PlatformClient;
import io.erasure.process.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * One run followed from trigger to end: the moment each state was first seen (polled every 200 ms) with the CPU time
 * of the platform's services and of the whole host at that moment, so each stage gets its wall time and CPU-seconds.
 * A held run is approved by the operator, and the wait for that approval is its own stage, counted in no other.
 */
final class RunStages {

    enum Stage {
        AUDIT,
        VALIDATION,
        APPROVAL,
        DELETION,
        VERIFICATION
    }

    record Sample(long nanos, double[] perService, double hostCpuSeconds) {
        double serviceCpuSeconds() {
            return Arrays.stream(perService).sum();
        }
    }

    /** @param perService CPU-seconds of each service, in {@code LocalPlatform}'s order */
    record Measured(Duration wall, double serviceCpuSeconds, double hostCpuSeconds, double[] perService) {}

    record Result(JsonNode run, Map<Stage, Measured> stages) {}

    static final Duration POLL = Duration.ofMillis(200);

    private static final Set<String> FINAL =
            Set.of("COMPLETED", "FAILED", "CANCELLED", "REJECTED", "DRY_RUN_COMPLETED");

    private final PlatformClient owner;
    private final PlatformClient operator;
    private final List<ChildJvm> services;

    RunStages(PlatformClient owner, PlatformClient operator, List<ChildJvm> services) {
        this.owner = owner;
        this.operator = operator;
        this.services = services;
    }

    Result run(String dataset, Duration timeout) throws InterruptedException {
        Map<String, Sample> entered = new HashMap<>();
        entered.put("TRIGGERED", sample());
        String runId = trigger(dataset);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode run = operator.get("/api/runs/" + runId).require("reading run " + runId);
            String state = run.path("state").asString();
            if (!entered.containsKey(state)) {
                entered.put(state, sample());
            }
            if (state.equals("AWAITING_APPROVAL")) {
                operator.post("/api/runs/" + runId + "/approve", null).require("approving run " + runId);
            } else if (FINAL.contains(state)) {
                if (!state.equals("COMPLETED")) {
                    throw new IllegalStateException("the run " + runId + " of " + dataset + " ended " + state + ": "
                            + run.path("failureReason").asString(""));
                }
                return new Result(run, stages(entered));
            }
            // a sleep, not a wait for a condition: the benchmark's sampling pace (each state is timed to a POLL)
            Thread.sleep(POLL.toMillis());
        }
        throw new IllegalStateException("the run " + runId + " of " + dataset + " did not end within " + timeout);
    }

    String trigger(String dataset) {
        return owner.post("/api/datasets/" + dataset + "/runs", null)
                .require("triggering a run of " + dataset)
                .path("id")
                .asString();
    }

    /** Waits until the run deletes, approving it when held. */
    void awaitDeleting(String runId, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String state = operator.get("/api/runs/" + runId)
                    .require("reading run " + runId)
                    .path("state")
                    .asString();
            switch (state) {
                case "DELETING" -> {
                    return;
                }
                case "AWAITING_APPROVAL" ->
                    operator.post("/api/runs/" + runId + "/approve", null).require("approving " + runId);
                default -> {
                    if (FINAL.contains(state) || state.equals("VERIFYING")) {
                        throw new IllegalStateException(
                                "the run " + runId + " got to " + state + " without being seen deleting");
                    }
                }
            }
            // the benchmark's pace: each poll may approve the run, a step the loop takes itself (no condition to await)
            Thread.sleep(POLL.toMillis());
        }
        throw new IllegalStateException("the run " + runId + " did not start deleting within " + timeout);
    }

    /** How many rows the run has deleted so far. */
    long deleted(String runId) {
        return operator.get("/api/runs/" + runId)
                .require("reading run " + runId)
                .path("counts")
                .path("deletion")
                .path("deleted")
                .asLong(0);
    }

    void cancel(String runId) {
        operator.post("/api/runs/" + runId + "/cancel", Map.of("reason", "benchmark phase over"))
                .require("cancelling " + runId);
    }

    /**
     * Stage boundaries from the first moment each state was seen; a state passed between two polls starts its stage at
     * the next one seen (audit from the trigger; validation ends when the run is held or authorized).
     */
    private static Map<Stage, Measured> stages(Map<String, Sample> entered) {
        Map<Stage, Measured> stages = new EnumMap<>(Stage.class);
        Sample triggered = entered.get("TRIGGERED");
        Sample validating = first(entered, "VALIDATING", "AWAITING_APPROVAL", "AUTHORIZED", "DELETING");
        Sample held = first(entered, "AWAITING_APPROVAL", "AUTHORIZED", "DELETING");
        Sample authorized = first(entered, "AUTHORIZED", "DELETING", "VERIFYING");
        Sample verifying = first(entered, "VERIFYING", "COMPLETED");
        Sample completed = entered.get("COMPLETED");
        stages.put(Stage.AUDIT, between(triggered, validating));
        stages.put(Stage.VALIDATION, between(validating, held));
        stages.put(Stage.APPROVAL, between(held, authorized));
        stages.put(Stage.DELETION, between(authorized, verifying));
        stages.put(Stage.VERIFICATION, between(verifying, completed));
        return stages;
    }

    private static Sample first(Map<String, Sample> entered, String... states) {
        for (String state : states) {
            Sample sample = entered.get(state);
            if (sample != null) {
                return sample;
            }
        }
        return entered.get("COMPLETED");
    }

    private static Measured between(Sample from, Sample to) {
        double[] perService = new double[to.perService().length];
        for (int i = 0; i < perService.length; i++) {
            perService[i] = to.perService()[i] - from.perService()[i];
        }
        return new Measured(
                Duration.ofNanos(to.nanos() - from.nanos()),
                to.serviceCpuSeconds() - from.serviceCpuSeconds(),
                to.hostCpuSeconds() - from.hostCpuSeconds(),
                perService);
    }

    private Sample sample() {
        double[] perService = new double[services.size()];
        for (int i = 0; i < perService.length; i++) {
            perService[i] = cpuSeconds(services.get(i).pid());
        }
        return new Sample(System.nanoTime(), perService, hostCpuSeconds());
    }

    private static double cpuSeconds(long pid) {
        Optional<Duration> cpu = ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration());
        return cpu.map(d -> d.toNanos() / 1e9).orElse(0.0);
    }

    /** Busy time of all CPUs since boot, from /proc/stat (user + nice + system + irq + softirq + steal). */
    static double hostCpuSeconds() {
        try {
            String[] fields =
                    Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(fields[i]);
            }
            return busy / 100.0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
