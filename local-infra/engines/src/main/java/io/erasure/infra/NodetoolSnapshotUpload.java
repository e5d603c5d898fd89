package io.erasure.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Backs a table of the local node up as a team with only {@code nodetool snapshot} and a copy tool does, for tests
 * and the demo: a snapshot taken over JMX, then its folder (SSTable components, Cassandra's {@code manifest.json} and
 * {@code schema.cql}, index subfolders) copied as it is to {@code <prefix><tag>/<node>/}.
 */
public final class NodetoolSnapshotUpload {

    private NodetoolSnapshotUpload() {}

    /**
     * Snapshots {@code keyspace.table} and uploads it as node {@code node}'s part of snapshot {@code tag}; returns the
     * keys. The node's own snapshot is named after the tag and the time, so one node can stand for several.
     */
    public static List<String> backUp(
            CassandraEngine cassandra,
            MedusaUpload.Store store,
            String prefix,
            String tag,
            String node,
            String keyspace,
            String table)
            throws Exception {
        String local = tag + "-" + System.nanoTime();
        try (NodeTool nodetool = new NodeTool(cassandra)) {
            nodetool.snapshot(local, keyspace, table);
        }
        Path snapshot =
                cassandra.tableDirectory(keyspace, table).resolve("snapshots").resolve(local);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(snapshot)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        List<String> keys = new ArrayList<>();
        for (Path file : files) {
            String key = prefix + tag + "/" + node + "/"
                    + snapshot.relativize(file).toString().replace('\\', '/');
            store.put(key, Files.readAllBytes(file));
            keys.add(key);
        }
        return keys;
    }
}
