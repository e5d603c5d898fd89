package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One deletion replica's throttle, per store it deletes from, at one moment: what {@code GET /api/throttle} answers
 * and what each replica publishes every few seconds on {@code erasure.throttle.samples} for the control plane's
 * history. Display only: no decision is taken on a sample, so a sample is checked for shape and range, not signed.
 *
 * @param replica   which deletion replica (its host name and process id)
 * @param sampledAt when the replica took the sample
 * @param stores    one line per store the replica has deleted from since it started, by name
 */
public record ThrottleSample(String replica, Instant sampledAt, List<StoreThrottle> stores) {

    /** A replica name: a host name, a '/' and a process id, or any other short printable name without spaces. */
    public static final Pattern REPLICA = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}");

    /** More stores than any deployment configures: a sample listing more is refused whole. */
    public static final int MAX_STORES = 500;

    public ThrottleSample {
        Require.nonNull("replica", replica);
        if (!REPLICA.matcher(replica).matches()) {
            throw new IllegalArgumentException(
                    "replica must match " + REPLICA + " (e.g. its host name/pid), got " + Require.echo(replica));
        }
        Require.nonNull("sampledAt", sampledAt);
        stores = Require.listOf("stores", stores, MAX_STORES);
        Set<String> names = new HashSet<>();
        for (StoreThrottle store : stores) {
            Require.that(names.add(store.store()), "stores lists " + store.store() + " twice");
        }
    }

    /**
     * @param store       the store's connection ref
     * @param limit       the replica's current limit for it (rows/s)
     * @param floor       the lowest the limit goes (rows/s)
     * @param cap         the replica's share of the store's static cap (rows/s)
     * @param rate        rows/s the replica sent to the store in its last control step
     * @param utilization the store's own load signal, 0 (idle) to 1 (saturated) or above when overloaded
     * @param decision    the last control step's decision: cut, raise, hold, or none before the first step
     * @param reason      why: the overloading signal, headroom, at_cap, load_unreadable; none before the first step
     */
    public record StoreThrottle(
            String store, int limit, int floor, int cap, int rate, double utilization, String decision, String reason) {

        private static final Pattern WORD = Pattern.compile("[a-z_]{1,32}");

        public StoreThrottle {
            Names.connectionRef("store", store);
            Require.that(
                    limit >= 0 && floor >= 0 && cap >= 0 && rate >= 0,
                    "store " + store + ": limit, floor, cap and rate are rows/s and cannot be negative");
            Require.that(
                    Double.isFinite(utilization) && utilization >= 0 && utilization <= 100,
                    "store " + store + ": utilization must be a number from 0 to 100, got " + utilization);
            Require.nonNull("decision", decision);
            Require.nonNull("reason", reason);
            Require.that(
                    WORD.matcher(decision).matches() && WORD.matcher(reason).matches(),
                    "store " + store + ": decision and reason must be short lower-case words, got "
                            + Require.echo(decision) + " and " + Require.echo(reason));
        }
    }
}
