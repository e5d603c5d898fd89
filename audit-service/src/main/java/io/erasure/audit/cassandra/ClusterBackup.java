package io.erasure.audit.cassandra;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One backup of a whole Cassandra cluster, as its files describe it: a Medusa backup every node of its token map
 * completed, or a {@code nodetool snapshot} every uploaded node folder of which holds all its SSTables' components.
 * Replicas overlap, so an audit reads every node's files of a table.
 *
 * @param layout    how it is stored: {@link BackupLayout#MEDUSA} or {@link BackupLayout#NODETOOL_SNAPSHOT}
 * @param name      the backup's name (a snapshot's tag), the same on every node
 * @param started   the earliest node's start (Medusa: its {@code schema.cql} upload, written first; a snapshot: its
 *                  {@code manifest.json}'s {@code created_at}, taken before the node flushed)
 * @param folder    the key of the folder that holds it (Medusa: its first node's {@code meta/} folder)
 * @param schemaKey the key of the {@code schema.cql} the SSTable reader opens the table with
 * @param nodes     every node's backup, by name order
 */
public record ClusterBackup(
        BackupLayout layout, String name, Instant started, String folder, String schemaKey, List<Node> nodes) {

    public ClusterBackup {
        nodes = List.copyOf(nodes);
    }

    /**
     * The cut-off of an audit of this backup: its start minus the clock-skew margin. Nothing written after it is in
     * every replica's files, so nothing written after it is ever deleted on this backup's word.
     */
    public CutoffTimestamp cutoff(Duration skewMargin) {
        return CutoffTimestamp.fromBackupStart(started, skewMargin);
    }

    /** How messages name it: {@code Medusa backup 'b1'}, {@code nodetool snapshot 'daily'}. */
    public String describe() {
        return (layout == BackupLayout.MEDUSA ? "Medusa backup '" : "nodetool snapshot '") + name + "'";
    }

    /** Every node's objects of {@code keyspace.table}, with the node they belong to; empty if no node has it. */
    public List<NodeObject> objects(String keyspace, String table) {
        List<NodeObject> out = new ArrayList<>();
        for (Node node : nodes) {
            for (Table t : node.tables()) {
                if (t.keyspace().equals(keyspace) && t.table().equals(table)) {
                    for (StoredObject object : t.objects()) {
                        out.add(new NodeObject(node.fqdn(), object));
                    }
                }
            }
        }
        return out;
    }

    /**
     * One node's part.
     *
     * @param differential whether its SSTables live under {@code <fqdn>/data/}, shared between backups, rather than
     *                     under the backup's own folder (Medusa only)
     * @param keyPrefix    the key prefix every object of the node lies under
     */
    public record Node(String fqdn, Instant started, boolean differential, List<Table> tables, String keyPrefix) {
        public Node {
            tables = List.copyOf(tables);
        }
    }

    /**
     * One table's objects on one node.
     *
     * @param folder     the name of the key segment right above its components: Medusa's data folder
     *                   {@code <table>-<table id>}, a snapshot's node folder
     * @param dataFolder the table's folder in the data directory the reader is given
     */
    public record Table(String keyspace, String table, String folder, String dataFolder, List<StoredObject> objects) {

        private static final Pattern TABLE_ID = Pattern.compile("-[0-9a-f]{32}$");

        public Table {
            objects = List.copyOf(objects);
        }

        /** A table as a Medusa manifest lists it, by its data folder {@code <table>-<table id>}. */
        public static Table medusa(String keyspace, String columnFamily, List<StoredObject> objects) {
            return new Table(
                    keyspace, TABLE_ID.matcher(columnFamily).replaceFirst(""), columnFamily, columnFamily, objects);
        }
    }

    /**
     * One stored object (an SSTable component): its key, size and, in a Medusa backup, the manifest's MD5. A
     * snapshot's objects have none: their {@code Data.db} is checked against the SSTable's own {@code Digest.crc32}.
     */
    public record StoredObject(
            String key, long size, @Nullable String md5) {

        /** The check of this object's bytes against the Medusa manifest's MD5 (refused if it has none). */
        public MedusaMd5 checksum() {
            return MedusaMd5.of(key, md5, size);
        }
    }

    /** An object with the node whose backup lists it. */
    public record NodeObject(String fqdn, StoredObject object) {}
}
