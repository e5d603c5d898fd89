package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.run.RunId;

import java.util.List;

/**
 * The current control state of one scope ({@code global} or a dataset) on the compacted
 * {@code erasure.control} topic. Because compaction keeps one message per key, each message is the
 * whole state of its scope: {@code active} is the kill switch (deletion stops while it is on) and
 * {@code cancelledRuns} lists the scope's cancelled runs still to be dropped by consumers.
 */
public record ControlSignal(String scope, boolean active, List<RunId> cancelledRuns, String actor, String reason)
        implements EventPayload {

    public static final String GLOBAL = Names.RESERVED_GLOBAL;

    public ControlSignal {
        Require.nonNull("scope ('global' or a dataset name)", scope);
        if (!GLOBAL.equals(scope)) {
            Names.datasetName("scope", scope);
        }
        cancelledRuns = cancelledRuns == null ? List.of() : Require.listOf("cancelledRuns", cancelledRuns);
        Require.nonBlank("actor", actor);
        Require.nonBlank("reason", reason);
    }

    public static ControlSignal global(boolean active, String actor, String reason) {
        return new ControlSignal(GLOBAL, active, List.of(), actor, reason);
    }

    public static ControlSignal dataset(String dataset, boolean active, List<RunId> cancelledRuns, String actor,
                                        String reason) {
        return new ControlSignal(Names.datasetName("scope", dataset), active, cancelledRuns, actor, reason);
    }

    public boolean globalScope() {
        return GLOBAL.equals(scope);
    }

    public boolean cancels(RunId runId) {
        return cancelledRuns.contains(runId);
    }
}
