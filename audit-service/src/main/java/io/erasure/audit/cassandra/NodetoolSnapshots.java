package io.erasure.audit.cassandra;

import io.erasure.audit.bucket.BucketReads;
import io.erasure.audit.cassandra.ClusterBackup.Node;
import io.erasure.audit.cassandra.ClusterBackup.StoredObject;
import io.erasure.audit.cassandra.ClusterBackup.Table;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.model.dataset.BackupLayout;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import tools.jackson.databind.JsonNode;

/**
 * Plain {@code nodetool snapshot} uploads of one table: {@code [<prefix>/]<tag>/<node>/} holds one node's snapshot
 * folder ({@code <data>/<keyspace>/<table>-<id>/snapshots/<tag>/}) as Cassandra wrote it: the SSTables' components,
 * {@code manifest.json} ({@code files} and {@code created_at}, Cassandra 4.1 and later) and {@code schema.cql}.
 *
 * <p>Nothing marks an upload finished, so a node's folder is complete once it holds its manifest, its schema and every
 * component each listed SSTable's {@code TOC.txt} names; a snapshot is complete once the location's {@code nodes} node
 * folders under its tag are, all with the same {@code schema.cql}. The snapshot starts at its earliest node's
 * {@code created_at}, which Cassandra takes before it flushes (a snapshot taken with {@code --skip-flush} misses the
 * memtables, which no file shows: it must not be used): every write acknowledged before it is in the files. A node
 * whose clock runs ahead cannot move it later than the node's upload: its start is the earlier of {@code created_at}
 * and its {@code manifest.json}'s upload time. A snapshot has no checksum of its own: each {@code Data.db} is checked
 * against its SSTable's {@code Digest.crc32} as it is read, and the other components by the reader where Cassandra
 * checks them.
 */
public final class NodetoolSnapshots implements ClusterBackups {

    private static final Logger log = LoggerFactory.getLogger(NodetoolSnapshots.class);

    static final String MANIFEST = "manifest.json";
    static final String SCHEMA = "schema.cql";

    private static final String DATA = "Data.db";
    private static final String DIGEST = "Digest.crc32";

    /** A CQL name, plain or double-quoted. */
    private static final String NAME = "(\"(?:[^\"]|\"\")+\"|\\w+)";

    /** {@code CREATE TABLE [IF NOT EXISTS] <keyspace>.<table>}. */
    private static final Pattern CREATE_TABLE = Pattern.compile(
            "CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?" + NAME + "\\s*\\.\\s*" + NAME, Pattern.CASE_INSENSITIVE);

    /** An SSTable's file name: {@code <version>-<id>-<format>-<component>}, the component after the last dash. */
    private static final Pattern SSTABLE_FILE = Pattern.compile("([a-z]{2}-[A-Za-z0-9_]+-[a-z]+)-([A-Za-z0-9_.]+)");

    /** A node folder's name: a host name or address, as a folder. */
    private static final Pattern NODE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    /** A secondary index's SSTable file, in the table folder's {@code .<index>/} subfolder. */
    private static final Pattern INDEX_FILE = Pattern.compile("\\.\\w+/[^/]+");

    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final BucketReads reads;
    private final int nodes;

    /**
     * @param prefix the prefix the tags lie under, empty for none
     * @param nodes  how many node folders make a snapshot complete
     */
    public NodetoolSnapshots(S3Client s3, String bucket, String prefix, int nodes) {
        this.s3 = s3;
        this.bucket = bucket;
        this.prefix = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
        this.reads = new BucketReads(s3, bucket);
        this.nodes = nodes;
    }

    /**
     * The newest complete snapshot by {@code created_at}. Each tag's manifests are read first (one small object per
     * node); only the newest tags are then checked file by file, until one is complete. An older snapshot read in
     * place of a newer one, or beside a tag whose manifests cannot be read, is logged with that one's reason.
     */
    @Override
    public ClusterBackup latestComplete() {
        Map<String, Instant> starts = new HashMap<>();
        String newest = null;
        for (String tag : reads.folders(prefix)) {
            try {
                starts.put(tag, start(tag));
            } catch (BackupIntegrityException e) {
                newest = newest == null ? "'" + tag + "': " + e.getMessage() : newest;
            }
        }
        List<String> newestFirst = starts.keySet().stream()
                .sorted(Comparator.comparing(starts::get).reversed())
                .toList();
        for (String tag : newestFirst) {
            try {
                ClusterBackup backup = read(tag);
                if (newest != null) {
                    log.warn(
                            "nodetool snapshot '{}' under s3://{}/{} is audited; a newer or unreadable one is not"
                                    + " complete: {}",
                            tag,
                            bucket,
                            prefix,
                            newest);
                }
                return backup;
            } catch (BackupIntegrityException e) {
                newest = tag.equals(newestFirst.get(0)) || newest == null ? e.getMessage() : newest;
            }
        }
        throw new BackupIntegrityException("no complete nodetool snapshot under s3://" + bucket + "/" + prefix
                + ": a snapshot is <tag>/<node>/ folders, complete once " + nodes + " node folders (backup.nodes) each"
                + " hold manifest.json (with created_at), schema.cql and every component their SSTables' TOC.txt name"
                + (newest == null ? "; there is no tag folder" : "; the newest: " + newest));
    }

    @Override
    public ClusterBackup read(String tag) {
        String tagPrefix = prefix + tag + "/";
        List<String> nodeNames = reads.folders(tagPrefix);
        if (nodeNames.size() != nodes) {
            throw new BackupIntegrityException("nodetool snapshot '" + tag + "' has " + nodeNames.size() + " of its "
                    + nodes + " node folders under s3://" + bucket + "/" + tagPrefix
                    + (nodeNames.size() < nodes
                            ? ": the others have not finished uploading (or backup.nodes is larger than the cluster)"
                            : ": more than backup.nodes says; if the cluster grew, update the dataset's backup.nodes"));
        }
        List<Node> read = new ArrayList<>();
        String schema = null;
        String schemaNode = null;
        for (String node : nodeNames) {
            if (!NODE.matcher(node).matches()) {
                throw new BackupIntegrityException("nodetool snapshot '" + tag + "' has the node folder '" + node
                        + "', which is no folder name (letters, digits, '.', '_', '-')");
            }
            NodeFolder folder = node(tag, tagPrefix, node);
            if (schema == null) {
                schema = folder.schema();
                schemaNode = node;
            } else if (!schema.equals(folder.schema())) {
                throw new BackupIntegrityException("nodetool snapshot '" + tag + "': the schema.cql of node " + node
                        + " differs from node " + schemaNode + "'s (a schema change while the nodes took their"
                        + " snapshots, or another table's folder): take the snapshot again once the schema has"
                        + " settled");
            }
            read.add(folder.node());
        }
        Instant started =
                read.stream().map(Node::started).min(Comparator.naturalOrder()).orElseThrow();
        return new ClusterBackup(
                BackupLayout.NODETOOL_SNAPSHOT,
                tag,
                started,
                tagPrefix,
                tagPrefix + nodeNames.get(0) + "/" + SCHEMA,
                read);
    }

    /**
     * A snapshot's object, which no manifest sums: its size as listed, and for a {@code Data.db} the CRC32 its
     * SSTable's {@code Digest.crc32} holds (the whole file's, as written).
     */
    @Override
    public ObjectCheck check(Table table, StoredObject object) {
        String key = object.key();
        if (!key.endsWith(DATA)) {
            return ObjectCheck.size(key, object.size());
        }
        String digestKey = key.substring(0, key.length() - DATA.length()) + DIGEST;
        if (table.objects().stream().noneMatch(o -> o.key().equals(digestKey))) {
            throw new BackupIntegrityException(key + " has no " + DIGEST + " beside it to check it against: a"
                    + " snapshot's Data.db is read only with its SSTable's digest");
        }
        String digest = new String(reads.bytes(digestKey), StandardCharsets.US_ASCII).strip();
        if (!digest.matches("\\d{1,10}") || Long.parseLong(digest) > 0xFFFFFFFFL) {
            throw new BackupIntegrityException(digestKey + " holds no CRC32 (a decimal number): " + digest);
        }
        return ObjectCheck.crc32(key, object.size(), Long.parseLong(digest));
    }

    /** The snapshot's start: its nodes' earliest {@code created_at}. */
    private Instant start(String tag) {
        String tagPrefix = prefix + tag + "/";
        Instant started = null;
        for (String node : reads.folders(tagPrefix)) {
            Instant created = manifest(tagPrefix + node + "/" + MANIFEST).createdAt();
            started = started == null || created.isBefore(started) ? created : started;
        }
        if (started == null) {
            throw new BackupIntegrityException("it has no node folder");
        }
        return started;
    }

    /** A node's folder as read: the node, and its {@code schema.cql} to compare with the other nodes'. */
    private record NodeFolder(Node node, String schema) {}

    private NodeFolder node(String tag, String tagPrefix, String node) {
        String nodePrefix = tagPrefix + node + "/";
        Map<String, S3Object> files = new HashMap<>();
        reads.objects(nodePrefix).forEach(o -> files.put(o.key().substring(nodePrefix.length()), o));
        for (String required : List.of(MANIFEST, SCHEMA)) {
            if (!files.containsKey(required)) {
                throw incomplete(tag, node, nodePrefix, "no " + required);
            }
        }
        Manifest manifest = manifest(nodePrefix + MANIFEST);
        String schema = new String(reads.bytes(nodePrefix + SCHEMA), StandardCharsets.UTF_8).strip();
        String[] table = table(nodePrefix + SCHEMA, schema);
        Set<String> sstables = new LinkedHashSet<>();
        for (String file : manifest.files()) {
            if (INDEX_FILE.matcher(file).matches()) {
                continue; // a secondary index's own SSTables, in its .<index>/ subfolder
            }
            Matcher name = SSTABLE_FILE.matcher(file);
            if (!name.matches()) {
                throw new BackupIntegrityException("nodetool snapshot '" + tag + "': the manifest of node " + node
                        + " lists '" + file + "', which is no SSTable file of the table's folder");
            }
            sstables.add(name.group(1));
        }
        List<StoredObject> objects = new ArrayList<>();
        for (String sstable : sstables) {
            String toc = sstable + "-TOC.txt";
            if (!files.containsKey(toc)) {
                throw incomplete(tag, node, nodePrefix, "no " + toc);
            }
            for (String component : components(nodePrefix + toc)) {
                String file = sstable + "-" + component;
                S3Object listed = files.get(file);
                if (listed == null) {
                    throw incomplete(tag, node, nodePrefix, "no " + file + ", which its TOC.txt names");
                }
                objects.add(new StoredObject(nodePrefix + file, listed.size(), null));
            }
        }
        // the node's clock may run ahead of the storage's: the snapshot began no later than its manifest's upload
        Instant manifestUploaded = files.get(MANIFEST).lastModified();
        Instant started = manifestUploaded.isBefore(manifest.createdAt()) ? manifestUploaded : manifest.createdAt();
        return new NodeFolder(
                new Node(
                        node,
                        started,
                        false,
                        List.of(new Table(table[0], table[1], node, table[1], objects)),
                        tagPrefix),
                schema);
    }

    /** The components a {@code TOC.txt} names, one per line. */
    private List<String> components(String tocKey) {
        List<String> components = new ArrayList<>();
        for (String line : new String(reads.bytes(tocKey), StandardCharsets.UTF_8).split("\\R")) {
            String component = line.strip();
            if (component.isEmpty()) {
                continue;
            }
            if (!component.matches("[A-Za-z0-9_.]+")) {
                throw new BackupIntegrityException(tocKey + " names '" + component + "', which is no component");
            }
            components.add(component);
        }
        if (!components.contains("Data.db")) {
            throw new BackupIntegrityException(tocKey + " names no Data.db: it is no SSTable's table of contents");
        }
        return components;
    }

    /** The keyspace and table of the {@code CREATE TABLE} in a snapshot's {@code schema.cql}. */
    private static String[] table(String schemaKey, String schema) {
        Matcher create = CREATE_TABLE.matcher(schema);
        if (!create.find()) {
            throw new BackupIntegrityException(
                    schemaKey + " has no CREATE TABLE: is it the schema.cql nodetool snapshot wrote?");
        }
        return new String[] {name(create.group(1)), name(create.group(2))};
    }

    /** A CQL name as Cassandra stores it: a quoted one as written, an unquoted one in lower case. */
    private static String name(String cql) {
        return cql.startsWith("\"")
                ? cql.substring(1, cql.length() - 1).replace("\"\"", "\"")
                : cql.toLowerCase(Locale.ROOT);
    }

    /** What a node's {@code manifest.json} says: its SSTables' files and when the snapshot was taken. */
    private record Manifest(List<String> files, Instant createdAt) {}

    private Manifest manifest(String key) {
        JsonNode root = reads.json(key);
        JsonNode files = root.get("files");
        if (files == null || !files.isArray()) {
            throw new BackupIntegrityException(
                    key + " has no list of 'files': is it the manifest nodetool snapshot wrote?");
        }
        List<String> names = new ArrayList<>();
        for (JsonNode file : files) {
            if (!file.isString()) {
                throw new BackupIntegrityException(key + " lists a file that is no name: " + file);
            }
            names.add(file.stringValue());
        }
        JsonNode created = root.get("created_at");
        if (created == null || !created.isString()) {
            throw new BackupIntegrityException(key + " has no 'created_at': Cassandra before 4.1 does not record when"
                    + " a snapshot was taken, and without it no cut-off can be set; take the snapshots with"
                    + " Cassandra 4.1 or later");
        }
        try {
            return new Manifest(names, Instant.parse(created.stringValue()));
        } catch (DateTimeParseException e) {
            throw new BackupIntegrityException(
                    key + " has a 'created_at' that is no ISO-8601 instant: " + created.stringValue(), e);
        }
    }

    private BackupIntegrityException incomplete(String tag, String node, String nodePrefix, String what) {
        return new BackupIntegrityException("nodetool snapshot '" + tag + "' is incomplete: node " + node + " has "
                + what + " under s3://" + bucket + "/" + nodePrefix);
    }
}
