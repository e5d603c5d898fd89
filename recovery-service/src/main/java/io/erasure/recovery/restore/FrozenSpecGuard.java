package io.erasure.recovery.restore;

import io.erasure.deletionlog.client.FrozenSpec;
import io.erasure.deletionlog.client.FrozenSpecs;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.recovery.RecoveryScope;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import tools.jackson.databind.json.JsonMapper;

/**
 * Recoveries and reapplications act under the spec the rows were deleted with, frozen in the deletion log by the
 * deletion service ({@link FrozenSpecs}), never under one the caller sends: a caller's spec could point a restore at
 * another table, or make a reapplication delete from copies the run never had. A request may still send a spec, to say
 * what it expects; one that differs from the frozen spec is refused ({@link SpecMismatch}, naming each field that
 * differs), and nothing is written. A record whose origin froze no spec (logged before specs were kept) is never acted
 * on under a guessed one ({@link NoFrozenSpec}).
 */
public class FrozenSpecGuard {

    private final Supplier<FrozenSpecs> specs;
    private final JsonMapper json;

    public FrozenSpecGuard(Supplier<FrozenSpecs> specs, JsonMapper json) {
        this.specs = specs;
        this.json = json;
    }

    /**
     * The spec a recovery of {@code scope} is sized and routed by: a run's own dataset's (not a copy's view), or the
     * latest revision of the scope's dataset. {@code asked} (may be null) must be that frozen spec, for a run the one
     * of the dataset it names, for a dataset every revision its log holds.
     *
     * @throws SpecMismatch if {@code asked} differs
     * @throws NoFrozenSpec if the log holds no frozen spec for the scope
     */
    public DatasetSpec primary(RecoveryScope scope, DatasetSpec asked) {
        if (scope instanceof RecoveryScope.ByRun byRun) {
            String run = byRun.runId().value();
            List<FrozenSpec> frozen = specs.get().ofOrigin(run);
            if (asked != null) {
                FrozenSpec same = only(
                        frozen.stream()
                                .filter(spec -> spec.dataset().equals(asked.name()))
                                .toList(),
                        "run '" + run + "' for dataset '" + asked.name() + "'");
                requireSame(asked, same, "run '" + run + "'");
                return same.spec();
            }
            return only(frozen.stream().filter(spec -> spec.copyOf() == null).toList(), "run '" + run + "'")
                    .spec();
        }
        String dataset = scope instanceof RecoveryScope.ByKeys byKeys
                ? byKeys.dataset()
                : ((RecoveryScope.ByTimeWindow) scope).dataset();
        return latest(dataset, asked);
    }

    /**
     * The latest revision of {@code dataset}'s spec in the log; {@code asked} (may be null) must be every revision the
     * log holds.
     */
    public DatasetSpec latest(String dataset, DatasetSpec asked) {
        List<FrozenSpec> revisions = specs.get().ofDataset(dataset);
        if (revisions.isEmpty()) {
            throw new NoFrozenSpec(
                    "the deletion log holds no frozen spec of dataset '" + dataset + "': nothing of it is in"
                            + " the log, or its records were logged before frozen specs were kept;"
                            + " those cannot be acted on under a guessed spec");
        }
        if (asked != null) {
            for (FrozenSpec revision : revisions) {
                requireSame(asked, revision, "a run or request whose records of '" + dataset + "' are in the log");
            }
        }
        return revisions.get(0).spec();
    }

    /** @throws SpecMismatch if {@code asked} is not {@code frozen}, naming every field that differs */
    public void requireSame(DatasetSpec asked, FrozenSpec frozen, String whose) {
        if (asked == null || FrozenSpec.digest(asked, json).equals(frozen.digest())) {
            return;
        }
        List<String> differences = frozen.differencesFrom(asked, json);
        throw new SpecMismatch("spec differs from the spec " + whose + " deleted dataset '" + frozen.dataset()
                + "' under (frozen in the deletion log, " + frozen.digest() + "): "
                + (differences.isEmpty() ? "same fields, another canonical form" : String.join("; ", differences))
                + ". Omit spec: recoveries and reapplications use the frozen spec of each run or request");
    }

    /** Looks each (origin, dataset) up once, for one recovery or reapplication. */
    public Resolver resolver() {
        return new Resolver();
    }

    /** The frozen specs of the records one request acts on, each origin read once. */
    public final class Resolver {
        private final Map<String, List<FrozenSpec>> byOrigin = new HashMap<>();

        private Resolver() {}

        /**
         * The spec {@code originId} deleted {@code dataset} under.
         *
         * @throws NoFrozenSpec if it froze none (or, which never happens in one origin, more than one)
         */
        public FrozenSpec of(String originId, String dataset) {
            List<FrozenSpec> frozen =
                    byOrigin.computeIfAbsent(originId, origin -> specs.get().ofOrigin(origin));
            return only(
                    frozen.stream()
                            .filter(spec -> spec.dataset().equals(dataset))
                            .toList(),
                    "'" + originId + "' for dataset '" + dataset + "'");
        }
    }

    private static FrozenSpec only(List<FrozenSpec> found, String what) {
        if (found.isEmpty()) {
            throw new NoFrozenSpec(
                    "the deletion log holds no frozen spec of " + what + ": its records were logged before"
                            + " frozen specs were kept (or it deleted nothing there);"
                            + " they are not restored or deleted again under a guessed spec");
        }
        if (found.size() > 1) {
            throw new NoFrozenSpec("the deletion log holds " + found.size() + " frozen specs of " + what + " ("
                    + found.stream().map(FrozenSpec::digest).toList()
                    + "): which one a record was deleted under cannot be"
                    + " told, so none is guessed");
        }
        return found.get(0);
    }

    /** A request's spec is not the frozen one: refused (409), nothing is written. */
    public static final class SpecMismatch extends RuntimeException {
        public SpecMismatch(String message) {
            super(message);
        }
    }

    /** The log holds no (single) frozen spec for what a request would act on: nothing is acted on under a guess. */
    public static final class NoFrozenSpec extends RuntimeException {
        public NoFrozenSpec(String message) {
            super(message);
        }
    }
}
