package io.erasure.model.run;

import io.erasure.model.check.Require;

/** Who started a run: the schedule, or a named person or service (kept for accountability). */
public record RunTrigger(Kind kind, String actor) {

    public static final String SCHEDULER = "scheduler";

    public enum Kind {
        SCHEDULE,
        USER
    }

    public RunTrigger {
        Require.nonNull("trigger.kind (SCHEDULE or USER)", kind);
        if (kind == Kind.SCHEDULE) {
            actor = actor == null ? SCHEDULER : actor;
        }
        Require.nonBlank("trigger.actor", actor);
    }

    public static RunTrigger schedule() {
        return new RunTrigger(Kind.SCHEDULE, SCHEDULER);
    }

    public static RunTrigger user(String actor) {
        return new RunTrigger(Kind.USER, actor);
    }
}
