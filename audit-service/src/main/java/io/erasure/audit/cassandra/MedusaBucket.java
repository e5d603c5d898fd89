package io.erasure.audit.cassandra;

import io.erasure.audit.bucket.BucketReads;
import io.erasure.audit.cassandra.ClusterBackup.Node;
import io.erasure.audit.cassandra.ClusterBackup.StoredObject;
import io.erasure.audit.cassandra.ClusterBackup.Table;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.model.dataset.BackupLayout;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.JsonNode;

/**
 * Medusa backups in a bucket, read from their metadata only: {@code [<prefix>/]<fqdn>/<backup>/meta/} holds
 * {@code schema.cql} (written first, so its time is the node's start), {@code tokenmap.json} (the cluster's nodes),
 * {@code manifest.json} (written last: the node's backup is complete once it exists) and, for a differential backup,
 * a {@code differential} marker. A backup is complete once every node of its token map has its manifest.
 */
public final class MedusaBucket implements ClusterBackups {

    private static final String META = "meta/";

    /** The key of {@code file} in node {@code fqdn}'s {@code meta/} folder of backup {@code name}. */
    static String metaKey(String prefix, String fqdn, String name, String file) {
        return prefix + fqdn + "/" + name + "/" + META + file;
    }

    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final BucketReads reads;

    /** @param prefix Medusa's storage prefix, empty for none */
    public MedusaBucket(S3Client s3, String bucket, String prefix) {
        this.s3 = s3;
        this.bucket = bucket;
        this.prefix = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
        this.reads = new BucketReads(s3, bucket);
    }

    @Override
    public ClusterBackup latestComplete() {
        Map<String, Instant> starts = new HashMap<>();
        Map<String, Set<String>> nodesByBackup = new TreeMap<>();
        for (String fqdn : folders(prefix)) {
            for (String backup : folders(prefix + fqdn + "/")) {
                if (backup.equals("data")) {
                    continue; // a differential node's shared SSTables, not a backup
                }
                nodesByBackup.computeIfAbsent(backup, b -> new TreeSet<>()).add(fqdn);
            }
        }
        List<String> complete = new ArrayList<>();
        for (var entry : nodesByBackup.entrySet()) {
            Optional<Instant> started = completeStart(entry.getKey(), entry.getValue());
            if (started.isPresent()) {
                starts.put(entry.getKey(), started.get());
                complete.add(entry.getKey());
            }
        }
        return complete.stream()
                .max(Comparator.comparing(starts::get))
                .map(this::read)
                .orElseThrow(() -> new BackupIntegrityException("no complete Medusa backup under s3://" + bucket + "/"
                        + prefix + ": a backup is complete once every node of its tokenmap.json has written its"
                        + " meta/manifest.json"));
    }

    /** Against the manifest's MD5 and size. */
    @Override
    public ObjectCheck check(Table table, StoredObject object) {
        return object.checksum();
    }

    /**
     * The backup {@code name}, with every node's manifest.
     *
     * @throws BackupIntegrityException if it is incomplete, or a metadata file is missing or malformed
     */
    @Override
    public ClusterBackup read(String name) {
        Set<String> expected = tokenMapNodes(name, anyNode(name));
        List<Node> nodes = new ArrayList<>();
        for (String fqdn : expected) {
            Map<String, Instant> meta = metaFiles(fqdn, name);
            Instant started = meta.get("schema.cql");
            if (started == null) {
                throw incomplete(name, fqdn, "schema.cql");
            }
            if (!meta.containsKey("manifest.json")) {
                throw incomplete(name, fqdn, "manifest.json");
            }
            nodes.add(new Node(
                    fqdn,
                    started,
                    meta.containsKey("differential"),
                    manifest(metaKey(prefix, fqdn, name, "manifest.json")),
                    prefix + fqdn + "/"));
        }
        Instant started =
                nodes.stream().map(Node::started).min(Comparator.naturalOrder()).orElseThrow();
        String first = nodes.get(0).fqdn();
        return new ClusterBackup(
                BackupLayout.MEDUSA,
                name,
                started,
                metaKey(prefix, first, name, ""),
                metaKey(prefix, first, name, "schema.cql"),
                nodes);
    }

    private Optional<Instant> completeStart(String name, Set<String> present) {
        Set<String> expected;
        try {
            expected = tokenMapNodes(name, present.iterator().next());
        } catch (BackupIntegrityException e) {
            return Optional.empty();
        }
        Instant started = null;
        for (String fqdn : expected) {
            Map<String, Instant> meta = metaFiles(fqdn, name);
            Instant schema = meta.get("schema.cql");
            if (schema == null || !meta.containsKey("manifest.json")) {
                return Optional.empty();
            }
            started = started == null || schema.isBefore(started) ? schema : started;
        }
        return Optional.ofNullable(started);
    }

    private String anyNode(String name) {
        for (String fqdn : folders(prefix)) {
            if (metaFiles(fqdn, name).containsKey("tokenmap.json")) {
                return fqdn;
            }
        }
        throw new BackupIntegrityException("no node of Medusa backup '" + name + "' under s3://" + bucket + "/" + prefix
                + " has a meta/tokenmap.json");
    }

    /** The nodes the backup's token map names: every one of them must have backed up. */
    private Set<String> tokenMapNodes(String name, String fqdn) {
        String key = metaKey(prefix, fqdn, name, "tokenmap.json");
        JsonNode map = json(key);
        if (!map.isObject() || map.isEmpty()) {
            throw new BackupIntegrityException("tokenmap " + key + " is not an object of nodes by name");
        }
        return new TreeSet<>(map.propertyNames());
    }

    /** {@code [{keyspace, columnfamily, objects: [{path, size, MD5}]}]}. */
    private List<Table> manifest(String key) {
        JsonNode root = json(key);
        if (!root.isArray()) {
            throw new BackupIntegrityException("Medusa manifest " + key + " is not a list of tables");
        }
        List<Table> tables = new ArrayList<>();
        for (JsonNode entry : root) {
            String keyspace = text(entry, "keyspace", key);
            String columnFamily = text(entry, "columnfamily", key);
            JsonNode objects = entry.get("objects");
            if (objects == null || !objects.isArray()) {
                throw new BackupIntegrityException("Medusa manifest " + key + ": table " + keyspace + "." + columnFamily
                        + " has no list of objects");
            }
            List<StoredObject> stored = new ArrayList<>();
            for (JsonNode object : objects) {
                JsonNode size = object.get("size");
                if (size == null || !size.canConvertToLong() || size.longValue() < 0) {
                    throw new BackupIntegrityException("Medusa manifest " + key + ": an object of " + keyspace + "."
                            + columnFamily + " has no size");
                }
                stored.add(new StoredObject(text(object, "path", key), size.longValue(), text(object, "MD5", key)));
            }
            tables.add(Table.medusa(keyspace, columnFamily, stored));
        }
        return tables;
    }

    private static String text(JsonNode node, String field, String key) {
        JsonNode value = node.get(field);
        if (value == null || !value.isString() || value.stringValue().isBlank()) {
            throw new BackupIntegrityException("Medusa manifest " + key + " has an entry without '" + field + "'");
        }
        return value.stringValue();
    }

    private JsonNode json(String key) {
        return reads.json(key);
    }

    /** The files of a node's {@code meta/} folder with their upload times, in one listing. */
    private Map<String, Instant> metaFiles(String fqdn, String name) {
        String meta = metaKey(prefix, fqdn, name, "");
        Map<String, Instant> files = new HashMap<>();
        reads.objects(meta).forEach(o -> files.put(o.key().substring(meta.length()), o.lastModified()));
        return files;
    }

    private List<String> folders(String folder) {
        return reads.folders(folder);
    }

    private BackupIntegrityException incomplete(String name, String fqdn, String file) {
        return new BackupIntegrityException("Medusa backup '" + name + "' is incomplete: node " + fqdn + " has no "
                + "meta/" + file + " under s3://" + bucket + "/" + prefix + fqdn + "/" + name + "/");
    }
}
