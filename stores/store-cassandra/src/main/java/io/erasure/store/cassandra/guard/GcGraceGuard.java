package io.erasure.store.cassandra.guard;

import io.erasure.store.cassandra.guard.NodeStatus.Reachability;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides whether deleting from a table now can bring deleted rows back ("zombies").
 *
 * <p>A delete in Cassandra is a tombstone, written to the replicas that are up; a replica that missed it
 * learns of it from hints or a repair. Once {@code gc_grace_seconds} have passed, compaction may purge the
 * tombstone; a replica that still holds the old row then hands it back to the others on the next read repair
 * or repair, and the row is live again. So:
 *
 * <ul>
 *   <li><b>REFUSE</b> when a replica node has been unreachable for longer than {@code gc_grace_seconds}: it holds
 *       rows whose tombstones may already be purged elsewhere, and whatever it missed, it will resurrect;</li>
 *   <li><b>REFUSE</b> when {@code gc_grace_seconds} is 0 and the keyspace has more than one replica: the tombstones
 *       may be purged before they reach every replica;</li>
 *   <li><b>WARN</b> when, with more than one replica, no successful repair of the table is known within
 *       {@code gc_grace_seconds} (nothing shows that a replica missing this delete will get it in time), when a
 *       replica is down and may have been so for longer than {@code gc_grace_seconds} (the adapter only knows since
 *       when it has seen it down), or when a replica's state is unknown;</li>
 *   <li><b>WARN</b> when the batch writes more tombstones into one partition than {@code tombstone_warn_threshold}:
 *       reads of that partition will warn (and fail past {@code tombstone_failure_threshold}) until they are
 *       purged.</li>
 * </ul>
 *
 * <p>With a replication factor of 1 (a single node, or one replica per row) no replica can be stale: a node that
 * is down cannot take the delete at all, and no other copy exists to come back. The guard then allows, except
 * for the tombstone threshold. A node counts as a replica when the keyspace places replicas in its data
 * center ({@code SimpleStrategy}: every node). Pure: everything comes in as arguments and the clock.
 */
public final class GcGraceGuard {

    private final Clock clock;

    public GcGraceGuard(Clock clock) {
        this.clock = clock;
    }

    /**
     * @param mostTombstonesInOnePartition the most tombstones the batch writes into one partition (a row delete
     *                                     writes one, a partition delete one); 0 before the batch is planned
     */
    public Decision decide(ClusterState cluster, TableSettings table, int mostTombstonesInOnePartition) {
        Instant now = clock.instant();
        List<String> refusals = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Duration gcGrace = table.gcGrace();
        Replication replication = table.replication();

        if (replication.factor() > 1) {
            if (gcGrace.isZero()) {
                refusals.add(
                        table.name() + " has gc_grace_seconds = 0 with replication factor " + replication.describe()
                                + ": its tombstones may be purged before they reach every replica,"
                                + " and a replica that missed the delete would bring the rows back;"
                                + " set gc_grace_seconds longer than the repair interval (ALTER TABLE"
                                + " " + table.name() + " WITH gc_grace_seconds = 864000) before deleting");
            }
            for (NodeStatus node : cluster.nodes()) {
                if (replication.holdsReplicasIn(node.datacenter())) {
                    judgeNode(node, table, now, refusals, warnings);
                }
            }
            if (!gcGrace.isZero()) {
                judgeRepair(table, now, warnings);
            }
        }
        int threshold = table.tombstoneWarnThreshold();
        if (threshold > 0 && mostTombstonesInOnePartition > threshold) {
            warnings.add("this batch writes " + mostTombstonesInOnePartition + " tombstones into one partition of "
                    + table.name() + ", more than tombstone_warn_threshold (" + threshold + "): reads of that partition"
                    + " will log tombstone warnings (and fail past tombstone_failure_threshold) until compaction purges"
                    + " them, at least " + human(gcGrace) + " from now; send fewer keys of one partition per batch");
        }
        if (!refusals.isEmpty()) {
            return Decision.refuse(refusals);
        }
        return warnings.isEmpty() ? Decision.allow() : Decision.warn(warnings);
    }

    private static void judgeNode(
            NodeStatus node, TableSettings table, Instant now, List<String> refusals, List<String> warnings) {
        Duration gcGrace = table.gcGrace();
        String grace = possessive(table.name()) + " gc_grace_seconds of " + human(gcGrace);
        if (node.reachability() == Reachability.UNKNOWN) {
            warnings.add("the state of node " + node.address() + " (data center " + node.datacenter()
                    + "), a replica of "
                    + table.keyspace() + ", is unknown: a replica down for longer than " + grace + " would resurrect"
                    + " deleted rows; check it with nodetool status, or set 'jmx-port' on the connection so that the"
                    + " guard reads the cluster's own view");
            return;
        }
        if (node.reachability() != Reachability.DOWN) {
            return;
        }
        Duration atLeast = Duration.between(node.seenDownSince().orElseThrow(), now);
        if (atLeast.compareTo(gcGrace) > 0) {
            refusals.add(
                    "node " + node.address() + " has been unreachable for " + human(atLeast) + ", longer than " + grace
                            + ": its data may resurrect deleted rows; repair it (nodetool repair) or remove it before"
                            + " deleting");
            return;
        }
        if (node.lastSeenUp().isEmpty()) {
            warnings.add("node " + node.address() + " was already unreachable when this adapter first looked, "
                    + human(atLeast) + " ago, and may have been down for longer than " + grace + ": then its data would"
                    + " resurrect deleted rows; check since when with nodetool status and the node's log, and repair it"
                    + " (nodetool repair) or remove it");
        } else if (Duration.between(node.lastSeenUp().get(), now).compareTo(gcGrace) > 0) {
            warnings.add("node " + node.address() + " is unreachable and was last seen up "
                    + human(Duration.between(node.lastSeenUp().get(), now))
                    + " ago, so it may have been down for longer"
                    + " than " + grace + ": then its data would resurrect deleted rows; check since when with nodetool"
                    + " status, and repair it (nodetool repair) or remove it");
        }
    }

    private static void judgeRepair(TableSettings table, Instant now, List<String> warnings) {
        Duration gcGrace = table.gcGrace();
        String risk = ": a replica that misses this delete keeps the rows, and they come back once the other replicas"
                + " purge the tombstones; repair the table (nodetool repair " + table.keyspace() + " " + table.table()
                + ") at least every " + human(gcGrace);
        if (table.lastRepair().isEmpty()) {
            warnings.add("no successful repair of " + table.name() + " is known within its gc_grace_seconds of "
                    + human(gcGrace) + " (system_distributed.repair_history; replication factor "
                    + table.replication().describe() + ")" + risk);
        } else if (Duration.between(table.lastRepair().get(), now).compareTo(gcGrace) > 0) {
            warnings.add("the last known successful repair of " + table.name() + " ended "
                    + human(Duration.between(table.lastRepair().get(), now))
                    + " ago, longer than its gc_grace_seconds of "
                    + human(gcGrace) + risk);
        }
    }

    private static String possessive(String name) {
        return name.endsWith("s") ? name + "'" : name + "'s";
    }

    /** "11 days", "2 hours 30 minutes": the largest unit and, if not zero, the next one; rounded down. */
    static String human(Duration duration) {
        long seconds = Math.max(0, duration.getSeconds());
        long[] sizes = {86_400, 3_600, 60, 1};
        String[] units = {"day", "hour", "minute", "second"};
        List<String> parts = new ArrayList<>(2);
        for (int u = 0; u < sizes.length && parts.size() < 2; u++) {
            long count = seconds / sizes[u];
            if (count > 0) {
                parts.add(count + " " + units[u] + (count == 1 ? "" : "s"));
                seconds -= count * sizes[u];
            } else if (!parts.isEmpty()) {
                break;
            }
        }
        return parts.isEmpty() ? "0 seconds" : String.join(" ", parts);
    }
}
