package io.erasure.infra;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * Backs a table of the local node up the way cassandra-medusa lays a backup out, for tests and the demo: under
 * {@code <prefix><fqdn>/<backup>/} the node's {@code meta/schema.cql} and {@code meta/tokenmap.json} first, then a
 * snapshot taken over JMX and its SSTable components under {@code data/<keyspace>/<table>-<id>/}, and last
 * {@code meta/manifest.json} listing each with its size and MD5 (a single upload's, in hex).
 */
public final class MedusaUpload {

    /** Where the objects go: an S3 bucket in practice. */
    @FunctionalInterface
    public interface Store {
        void put(String key, byte[] bytes) throws IOException;
    }

    private MedusaUpload() {}

    /**
     * Snapshots {@code keyspace.table} as {@code backup} and uploads it as node {@code fqdn}'s part of that Medusa
     * backup; returns the keys of the SSTable components uploaded.
     */
    public static List<String> backUp(
            CassandraEngine cassandra,
            Store store,
            String prefix,
            String backup,
            String fqdn,
            String keyspace,
            String table)
            throws Exception {
        Path tableDir = cassandra.tableDirectory(keyspace, table);
        String node = prefix + fqdn + "/" + backup + "/";
        try (NodeTool nodetool = new NodeTool(cassandra)) {
            // as Medusa does: the schema and token map first, so the backup's start precedes every file of it
            nodetool.snapshot(backup + "-schema", keyspace, table);
            store.put(
                    node + "meta/schema.cql",
                    Files.readAllBytes(tableDir.resolve("snapshots")
                            .resolve(backup + "-schema")
                            .resolve("schema.cql")));
            store.put(
                    node + "meta/tokenmap.json",
                    ("{\"" + fqdn + "\": {\"tokens\": [0], \"is_up\": true, \"rack\": \"rack1\", \"dc\": \""
                                    + CassandraEngine.LOCAL_DATACENTER + "\"}}")
                            .getBytes(StandardCharsets.UTF_8));
            nodetool.snapshot(backup, keyspace, table);
        }
        Path snapshot = tableDir.resolve("snapshots").resolve(backup);
        String folder = tableDir.getFileName().toString();
        List<String> keys = new ArrayList<>();
        StringBuilder objects = new StringBuilder();
        List<Path> components;
        try (Stream<Path> files = Files.list(snapshot)) {
            components = files.filter(f -> !List.of("schema.cql", "manifest.json")
                            .contains(f.getFileName().toString()))
                    .sorted()
                    .toList();
        }
        for (Path component : components) {
            byte[] bytes = Files.readAllBytes(component);
            String key = node + "data/" + keyspace + "/" + folder + "/" + component.getFileName();
            store.put(key, bytes);
            keys.add(key);
            objects.append(objects.length() == 0 ? "" : ",")
                    .append("{\"path\": \"")
                    .append(key)
                    .append("\", \"MD5\": \"")
                    .append(HexFormat.of().formatHex(md5(bytes)))
                    .append("\", \"size\": ")
                    .append(bytes.length)
                    .append('}');
        }
        store.put(
                node + "meta/manifest.json",
                ("[{\"keyspace\": \"" + keyspace + "\", \"columnfamily\": \"" + folder + "\", \"objects\": [" + objects
                                + "]}]")
                        .getBytes(StandardCharsets.UTF_8));
        return keys;
    }

    private static byte[] md5(byte[] bytes) throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("MD5").digest(bytes);
    }
}
