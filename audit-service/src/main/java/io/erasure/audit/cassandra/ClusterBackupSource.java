package io.erasure.audit.cassandra;

import io.erasure.audit.join.CandidateSink;
import io.erasure.audit.scratch.ScratchSpace;
import io.erasure.audit.sstable.SSTableScan;
import io.erasure.audit.sstable.SSTableUnit;
import io.erasure.audit.sstable.ScanResult;
import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.TokenSlices;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.identifiers.IdentifierSetFile;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.DatasetSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * A dataset's Cassandra backups as an audit reads them (ADR 0011), cassandra-medusa's or plain {@code nodetool
 * snapshot} uploads: the newest backup every node completed, cut off at its start minus the clock-skew margin, audited
 * in units of the token ring. A unit downloads every node's SSTables of the table (replicas overlap: a row's delete may
 * be held by another replica than its write), each object checked as it streams (against Medusa's MD5, or a
 * {@code Data.db} against its SSTable's {@code Digest.crc32}), and has the SSTable reader merge them for its range.
 */
public final class ClusterBackupSource {

    /** A unit's key: the token range it reads, {@code tokens:<after>:<upTo>}. */
    private static final Pattern UNIT = Pattern.compile("tokens:(-?\\d+):(-?\\d+)");

    /** What may name a downloaded file: an SSTable component's name ({@code +} in SAI's), never a path. */
    private static final Pattern COMPONENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]*");

    private final S3Client s3;
    private final String bucket;
    private final Supplier<SSTableScan> scans;
    private final TokenSlices tokenRanges;
    private final Duration skewMargin;

    /**
     * @param scans       the SSTable reader, asked for only when a unit runs (so a service that never audits a
     *                    Cassandra backup needs no SSTable reader classpath)
     * @param tokenRanges units per audit: each reads every node's SSTables of the table, for its share of the ring
     */
    public ClusterBackupSource(
            S3Client s3, String bucket, Supplier<SSTableScan> scans, int tokenRanges, Duration skewMargin) {
        this.s3 = s3;
        this.bucket = bucket;
        this.scans = scans;
        this.tokenRanges = new TokenSlices(tokenRanges);
        this.skewMargin = skewMargin;
    }

    /** Units of one token range each, read with up to 1 GiB of heap, for at most an hour: tests, the local platform. */
    public static ClusterBackupSource onRuntimeClasspath(BackupBucket bucket) {
        return new ClusterBackupSource(
                bucket.s3(),
                bucket.bucket(),
                () -> SSTableScan.onRuntimeClasspath(Duration.ofHours(1), "1g"),
                1,
                CutoffTimestamp.DEFAULT_CLOCK_SKEW_MARGIN);
    }

    /** What an audit of a dataset's Cassandra backups reads, fixed when it is planned. */
    public record Planned(ClusterBackup backup, long cutoffMicros, List<String> unitKeys) {}

    /**
     * The newest complete backup under {@code location} and the audit's units.
     *
     * @throws BackupIntegrityException if no backup is complete, or the newest holds no SSTable of the table
     */
    public Planned plan(BackupLocation location, DatasetSpec spec, Instant now) {
        ClusterBackup backup = backups(location).latestComplete();
        if (backup.objects(spec.namespace(), spec.table()).isEmpty()) {
            throw new BackupIntegrityException(backup.describe() + " under s3://" + bucket + "/"
                    + location.prefix() + " holds no SSTable of " + spec.namespace() + "." + spec.table()
                    + ": is the dataset's keyspace and table the backed-up cluster's?");
        }
        long cutoff = cutoffMicros(backup);
        if (!backup.started().isBefore(now)) {
            throw new BackupIntegrityException(backup.describe() + " starts at " + backup.started()
                    + ", not before now (" + now + "): the clocks of the cluster and the audit disagree");
        }
        List<String> units = new ArrayList<>(tokenRanges.count());
        for (int i = 0; i < tokenRanges.count(); i++) {
            units.add("tokens:" + tokenRanges.after(i) + ":" + tokenRanges.upTo(i));
        }
        return new Planned(backup, cutoff, units);
    }

    /** The cut-off of an audit of {@code backup}: its start minus the clock-skew margin. */
    public long cutoffMicros(ClusterBackup backup) {
        return backup.cutoff(skewMargin).micros();
    }

    /** The backup {@code name} under {@code location}, read again from its metadata. */
    public ClusterBackup read(BackupLocation location, String name) {
        return backups(location).read(name);
    }

    /**
     * Audits one unit: downloads every node's SSTables of the dataset's table, checked, into a scratch folder it
     * removes again, and scans them for the unit's token range as of {@code asOf}.
     *
     * @throws BackupIntegrityException if an object is missing, does not match its MD5, or the reader refuses the
     *                                  SSTables (its message says why)
     * @throws IOException              if S3 or the local disk failed (worth a retry)
     */
    public ScanResult join(
            ClusterBackup backup,
            BackupLocation location,
            DatasetSpec spec,
            String unitKey,
            IdentifierSet identifiers,
            Instant asOf,
            CandidateSink sink)
            throws IOException {
        Matcher unit = UNIT.matcher(unitKey);
        if (!unit.matches()) {
            throw new BackupIntegrityException(
                    "unit " + unitKey + " is not a token range of an audit of " + backup.describe());
        }
        SSTableUnit.TokenRange range =
                new SSTableUnit.TokenRange(Long.parseLong(unit.group(1)), Long.parseLong(unit.group(2)));
        Path work = ScratchSpace.ofThisProcess().newDirectory("sstable-unit-");
        try {
            List<Path> directories = download(backups(location), backup, spec, work);
            Path schema = work.resolve("schema.cql");
            download(backup, backup.schemaKey(), schema, null); // the reader parses it
            Path identifiersFile = work.resolve("identifiers.set");
            IdentifierSetFile.write(identifiers, identifiersFile);
            Path scan = Files.createDirectory(work.resolve("scan"));
            return scans.get()
                    .scan(
                            new SSTableUnit(
                                    spec.namespace(),
                                    spec.table(),
                                    schema,
                                    directories,
                                    spec.keyColumns().primaryKey(),
                                    spec.identifierColumn(),
                                    range,
                                    asOf.getEpochSecond()),
                            identifiersFile,
                            scan,
                            sink);
        } finally {
            ScratchSpace.remove(work);
        }
    }

    /**
     * Every node's objects of the table, one folder per node laid out as a data directory is. Objects of the table's
     * secondary indexes (its {@code .<index>/} subfolders, SSTables of the same names) are not read; anything else
     * outside the table's folder, a name that is no SSTable component, a component listed twice and a table listed
     * twice on one node are refused: the reader would otherwise read one file for another.
     */
    private List<Path> download(ClusterBackups layout, ClusterBackup backup, DatasetSpec spec, Path work)
            throws IOException {
        List<Path> folders = new ArrayList<>();
        for (ClusterBackup.Node node : backup.nodes()) {
            List<ClusterBackup.Table> tables = node.tables().stream()
                    .filter(t ->
                            t.keyspace().equals(spec.namespace()) && t.table().equals(spec.table()))
                    .toList();
            if (tables.size() > 1) {
                throw new BackupIntegrityException(backup.describe() + " lists " + spec.namespace()
                        + "." + spec.table() + " " + tables.size() + " times on node " + node.fqdn() + " ("
                        + tables.stream().map(ClusterBackup.Table::folder).toList() + "): a table dropped and"
                        + " created again leaves one folder per id, and which one is live cannot be told here");
            }
            for (ClusterBackup.Table table : tables) {
                if (!COMPONENT.matcher(table.folder()).matches()
                        || !COMPONENT.matcher(table.dataFolder()).matches()) {
                    throw new BackupIntegrityException(backup.describe() + " names the folder '" + table.folder()
                            + "' on node " + node.fqdn() + ", which is no folder name");
                }
                Path folder = Files.createDirectories(work.resolve("node-" + folders.size())
                        .resolve(spec.namespace())
                        .resolve(table.dataFolder()));
                folders.add(folder);
                String nodePrefix = node.keyPrefix();
                Set<String> names = new HashSet<>();
                for (ClusterBackup.StoredObject object : table.objects()) {
                    String key = object.key();
                    List<String> segments = key.startsWith(nodePrefix)
                            ? List.of(key.substring(nodePrefix.length()).split("/", -1))
                            : List.of();
                    if (segments.size() < 2 || segments.stream().anyMatch(ClusterBackupSource::notAFolderName)) {
                        throw misplaced(backup, node, key, nodePrefix);
                    }
                    String name = segments.get(segments.size() - 1);
                    String parent = segments.get(segments.size() - 2);
                    if (parent.startsWith(".")
                            && segments.size() >= 3
                            && segments.get(segments.size() - 3).equals(table.folder())) {
                        continue; // a secondary index's own SSTables
                    }
                    if (!parent.equals(table.folder())
                            || !COMPONENT.matcher(name).matches()) {
                        throw misplaced(backup, node, key, nodePrefix);
                    }
                    if (!names.add(name)) {
                        throw new BackupIntegrityException(backup.describe() + " lists " + name + " of "
                                + table.folder() + " twice on node " + node.fqdn());
                    }
                    download(backup, key, folder.resolve(name), layout.check(table, object));
                }
            }
        }
        if (folders.isEmpty()) {
            throw new BackupIntegrityException(
                    backup.describe() + " holds no SSTable of " + spec.namespace() + "." + spec.table());
        }
        return List.copyOf(folders);
    }

    private static boolean notAFolderName(String segment) {
        return segment.isEmpty() || segment.equals(".") || segment.equals("..");
    }

    private static BackupIntegrityException misplaced(
            ClusterBackup backup, ClusterBackup.Node node, String key, String nodePrefix) {
        return new BackupIntegrityException(backup.describe() + " lists the object " + key
                + " for node " + node.fqdn() + ": objects must lie in the table's folder under " + nodePrefix
                + " and be named as SSTable components");
    }

    /** Copies one object to {@code file}, checked as it streams unless {@code check} is null. */
    private void download(ClusterBackup backup, String key, Path file, @Nullable ObjectCheck check) throws IOException {
        try (InputStream in = s3.getObject(b -> b.bucket(bucket).key(key));
                OutputStream out = Files.newOutputStream(file)) {
            if (check == null) {
                in.transferTo(out);
                return;
            }
            ObjectCheck.Checked checked = check.check(in);
            checked.transferTo(out);
            checked.verify();
        } catch (NoSuchKeyException e) {
            throw missing(backup, key, e);
        } catch (SdkException e) {
            throw new IOException("reading s3://" + bucket + "/" + key + " failed: " + e.getMessage(), e);
        }
    }

    private BackupIntegrityException missing(ClusterBackup backup, String key, NoSuchKeyException e) {
        return new BackupIntegrityException(
                "s3://" + bucket + "/" + key + " is listed by the " + backup.describe() + " but"
                        + " does not exist: the backup is damaged or was partly removed",
                e);
    }

    private static int nodes(BackupLocation location) {
        Integer nodes = location.nodes();
        if (nodes == null) {
            throw new IllegalArgumentException("backup " + location.prefix() + " is NODETOOL_SNAPSHOT without nodes");
        }
        return nodes;
    }

    private ClusterBackups backups(BackupLocation location) {
        return switch (location.layout()) {
            case MEDUSA -> new MedusaBucket(s3, bucket, location.prefix());
            case NODETOOL_SNAPSHOT -> new NodetoolSnapshots(s3, bucket, location.prefix(), nodes(location));
            case PLATFORM, RDS_EXPORT ->
                throw new IllegalArgumentException("backup " + location.prefix() + " is in the " + location.layout()
                        + " layout, not a Cassandra cluster's");
        };
    }
}
