package io.erasure.store.cassandra.guard;

import java.util.List;
import java.util.Objects;

/**
 * What {@link GcGraceGuard} says about deleting now: go ahead, go ahead with warnings, or refuse.
 *
 * @param reasons why (REFUSE: every reason to refuse; WARN: every warning), one sentence each with the fix
 */
public record Decision(Verdict verdict, List<String> reasons) {

    public enum Verdict {
        ALLOW,
        WARN,
        REFUSE
    }

    public Decision {
        Objects.requireNonNull(verdict, "verdict");
        reasons = List.copyOf(reasons);
        if ((verdict == Verdict.ALLOW) != reasons.isEmpty()) {
            throw new IllegalArgumentException(verdict + " with reasons " + reasons);
        }
    }

    public static Decision allow() {
        return new Decision(Verdict.ALLOW, List.of());
    }

    public static Decision warn(List<String> warnings) {
        return new Decision(Verdict.WARN, warnings);
    }

    public static Decision refuse(List<String> reasons) {
        return new Decision(Verdict.REFUSE, reasons);
    }

    /** The reasons as one message. */
    public String reason() {
        return String.join("; ", reasons);
    }
}
