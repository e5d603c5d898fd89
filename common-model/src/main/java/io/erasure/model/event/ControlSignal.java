package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.SigningKey;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The current control state of one scope ({@code global} or a dataset) on the compacted
 * {@code erasure.control} topic. Because compaction keeps one message per key, each message is the
 * whole state of its scope: {@code active} is the kill switch (deletion stops while it is on) and
 * {@code cancelledRuns} lists the scope's cancelled runs still to be dropped by consumers.
 *
 * <p>The control plane signs each signal ({@link io.erasure.model.trust.Authorization.Kind#CONTROL}, over
 * {@link #signedContent()}); {@code sequence} grows with every signal of its scope (drawn from the control plane's
 * database under the scope's lock, at least the issuing clock's microseconds), so a consumer keeps the newest signal of
 * each scope, stored across restarts, and a re-sent older one (an old "lift" replayed after a newer "engage") changes
 * nothing. A consumer treats a signal without a valid signature as unreadable: its scope stops.
 */
public record ControlSignal(
        String scope,
        boolean active,
        List<RunId> cancelledRuns,
        String actor,
        String reason,
        long sequence,
        @Nullable String keyId,
        @Nullable String signature)
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
        Require.nonNegative("sequence", sequence);
        if (keyId != null) {
            Names.opaqueId("keyId", keyId);
        }
    }

    /**
     * An unsigned signal (sequence 0): what a consumer makes of a message it cannot trust, or one still to be signed.
     */
    public ControlSignal(String scope, boolean active, List<RunId> cancelledRuns, String actor, String reason) {
        this(scope, active, cancelledRuns, actor, reason, 0, null, null);
    }

    /** The bytes the signature covers: every field but the signature, cancelled runs sorted. */
    public byte[] signedContent() {
        List<String> fields = new ArrayList<>();
        fields.add("control-signal-v1");
        fields.add(scope);
        fields.add(Boolean.toString(active));
        fields.add(actor);
        fields.add(reason);
        fields.add(Long.toString(sequence));
        fields.add(String.valueOf(keyId));
        cancelledRuns.stream().map(RunId::value).sorted().forEach(fields::add);
        return DeterministicId.framed(fields.toArray(String[]::new));
    }

    /** This signal issued at {@code sequence} and signed with {@code key}. */
    public ControlSignal signed(long sequence, SigningKey key) {
        ControlSignal unsigned =
                new ControlSignal(scope, active, cancelledRuns, actor, reason, sequence, key.keyId(), null);
        return new ControlSignal(
                scope, active, cancelledRuns, actor, reason, sequence, key.keyId(), key.sign(unsigned.signedContent()));
    }

    public static ControlSignal global(boolean active, String actor, String reason) {
        return new ControlSignal(GLOBAL, active, List.of(), actor, reason);
    }

    public static ControlSignal dataset(
            String dataset, boolean active, List<RunId> cancelledRuns, String actor, String reason) {
        return new ControlSignal(Names.datasetName("scope", dataset), active, cancelledRuns, actor, reason);
    }

    public boolean globalScope() {
        return GLOBAL.equals(scope);
    }

    public boolean cancels(RunId runId) {
        return cancelledRuns.contains(runId);
    }
}
