package io.erasure.controlplane.registry;

import io.erasure.controlplane.refusal.Refusal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.springframework.scheduling.support.CronExpression;

/** Dataset schedules are Spring cron expressions evaluated in UTC. */
public final class Schedules {

    private Schedules() {}

    public static Instant nextAfter(String schedule, Instant after) {
        CronExpression cron;
        try {
            cron = CronExpression.parse(schedule);
        } catch (IllegalArgumentException e) {
            throw Refusal.badRequest("schedule '" + schedule + "' is not a valid cron expression: " + e.getMessage()
                    + "; use 'second minute hour day-of-month month day-of-week', e.g. '0 0 2 * * *'");
        }
        ZonedDateTime next = cron.next(after.atZone(ZoneOffset.UTC));
        if (next == null) {
            throw Refusal.badRequest("schedule '" + schedule + "' never fires again");
        }
        return next.toInstant();
    }
}
