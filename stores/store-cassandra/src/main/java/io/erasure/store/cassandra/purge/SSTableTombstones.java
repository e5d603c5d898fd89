package io.erasure.store.cassandra.purge;

import io.erasure.store.cassandra.jmx.NodeJmx;
import io.erasure.store.spi.StoreException;
import java.io.IOException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The purgeable tombstones still in a table's SSTables on one node, from what Cassandra 5 exposes over JMX:
 *
 * <ul>
 *   <li>{@code org.apache.cassandra.db:type=Tables,keyspace=K,table=T} attribute {@code DroppableTombstoneRatio}:
 *       over the live SSTables, the estimated tombstones whose deletion time is older than {@code gc_grace_seconds}
 *       (from each SSTable's tombstone drop-time histogram, whose times are rounded up to the minute) divided by
 *       the estimated cells;</li>
 *   <li>{@code org.apache.cassandra.metrics:type=Table,keyspace=K,scope=T,name=EstimatedColumnCountHistogram}
 *       ({@code Value}: cells per partition over the live SSTables, in Cassandra's {@code EstimatedHistogram}
 *       buckets): the same cell count the ratio divides by, so ratio × cells estimates the tombstones;</li>
 *   <li>{@code name=LiveSSTableCount}.</li>
 * </ul>
 * Not exposed, so not used: a count of tombstones younger than {@code gc_grace_seconds}, and each SSTable's
 * min/max deletion time (only the offline {@code sstablemetadata} tool reads them). Memtables are not counted.
 */
public final class SSTableTombstones {

    /** The estimate for one table on one node. */
    public record Estimate(
            double droppableRatio, long cells, long droppableTombstones, int liveSSTables, String node) {}

    private final NodeJmx jmx;

    public SSTableTombstones(NodeJmx jmx) {
        this.jmx = jmx;
    }

    public Estimate read(String keyspace, String table) {
        // Cassandra names are [A-Za-z0-9_]: nothing to quote in an ObjectName
        ObjectName store =
                NodeJmx.objectName("org.apache.cassandra.db:type=Tables,keyspace=" + keyspace + ",table=" + table);
        String metrics = "org.apache.cassandra.metrics:type=Table,keyspace=" + keyspace + ",scope=" + table + ",name=";
        try {
            return jmx.call(server -> {
                double ratio = ((Number) server.getAttribute(store, "DroppableTombstoneRatio")).doubleValue();
                long cells = cells((long[])
                        server.getAttribute(NodeJmx.objectName(metrics + "EstimatedColumnCountHistogram"), "Value"));
                int sstables = ((Number) server.getAttribute(NodeJmx.objectName(metrics + "LiveSSTableCount"), "Value"))
                        .intValue();
                long tombstones = ratio > 0 ? Math.max(1, Math.round(ratio * cells)) : 0;
                return new Estimate(ratio, cells, tombstones, sstables, jmx.describe());
            });
        } catch (InstanceNotFoundException e) {
            throw new StoreException.Retriable(
                    "node " + jmx.describe() + " has no table " + keyspace + "." + table
                            + " (yet); its schema may not have settled",
                    e);
        } catch (IOException | JMException | RuntimeException e) {
            throw new StoreException.Retriable(
                    "reading the SSTable statistics of " + keyspace + "." + table + " from " + jmx.describe()
                            + " over JMX failed: " + e,
                    e);
        }
    }

    /**
     * Cells in all partitions from an {@code EstimatedHistogram}'s buckets: each bucket's count times its upper
     * offset, as Cassandra's own mean does (offsets 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 17, ...; the last bucket
     * counts overflows and is taken at the last offset).
     */
    static long cells(long[] buckets) {
        long sum = 0;
        long offset = 1;
        for (int i = 0; i < buckets.length; i++) {
            if (i > 0 && i < buckets.length - 1) {
                long next = Math.round(offset * 1.2);
                offset = next == offset ? next + 1 : next;
            }
            sum += buckets[i] * offset;
        }
        return sum;
    }
}
