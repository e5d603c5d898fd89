package io.erasure.audit.medusa;

import io.erasure.model.cutoff.CutoffTimestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One Medusa backup of a whole cluster, as its nodes' metadata describe it: complete, every node of its token map
 * having written its {@code manifest.json}. Replicas overlap, so an audit reads every node's files of a table.
 *
 * @param name    the backup's name, the same on every node
 * @param started the earliest node's start (its {@code schema.cql} upload, written first)
 * @param nodes   every node's backup, by name order
 */
public record MedusaBackup(String name, Instant started, List<Node> nodes) {

    public MedusaBackup {
        nodes = List.copyOf(nodes);
    }

    /**
     * The cut-off of an audit of this backup: its start minus the clock-skew margin. Nothing written after it is in
     * every replica's files, so nothing written after it is ever deleted on this backup's word.
     */
    public CutoffTimestamp cutoff(Duration skewMargin) {
        return CutoffTimestamp.fromBackupStart(started, skewMargin);
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
     *                     under the backup's own folder
     */
    public record Node(String fqdn, Instant started, boolean differential, List<Table> tables) {
        public Node {
            tables = List.copyOf(tables);
        }
    }

    /**
     * One table's objects on one node. Medusa names the table by its data folder, {@code <table>-<table id>}.
     *
     * @param columnFamily the folder name as the manifest gives it
     */
    public record Table(String keyspace, String columnFamily, List<StoredObject> objects) {

        private static final Pattern TABLE_ID = Pattern.compile("-[0-9a-f]{32}$");

        public Table {
            objects = List.copyOf(objects);
        }

        /** The table's name, without the id Cassandra appends to its data folder. */
        public String table() {
            return TABLE_ID.matcher(columnFamily).replaceFirst("");
        }
    }

    /** One stored object (an SSTable component) as the manifest lists it: its key, size and MD5. */
    public record StoredObject(String key, long size, String md5) {

        /** The check of this object's bytes against the manifest. */
        public MedusaMd5 checksum() {
            return MedusaMd5.of(key, md5, size);
        }
    }

    /** An object with the node whose backup lists it. */
    public record NodeObject(String fqdn, StoredObject object) {}
}
