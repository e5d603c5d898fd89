package io.erasure.audit.medusa;

import io.erasure.audit.join.CandidateSink;
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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * A dataset's cassandra-medusa backups as an audit reads them (ADR 0011): the newest backup every node completed, cut
 * off at its start minus the clock-skew margin, audited in units of the token ring. A unit downloads every node's
 * SSTables of the table (replicas overlap: a row's delete may be held by another replica than its write), each
 * object checked against the manifest's MD5 as it streams, and has the SSTable reader merge them for its range only.
 */
public final class MedusaSource {

    /** A unit's key: the token range it reads, {@code tokens:<after>:<upTo>}. */
    private static final Pattern UNIT = Pattern.compile("tokens:(-?\\d+):(-?\\d+)");

    /** What may name a downloaded file: an SSTable component's name, never a path. */
    private static final Pattern COMPONENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private final S3Client s3;
    private final String bucket;
    private final Supplier<SSTableScan> scans;
    private final TokenSlices tokenRanges;
    private final Duration skewMargin;

    /**
     * @param scans       the SSTable reader, asked for only when a unit runs (so a service that never audits a Medusa
     *                    backup needs no SSTable reader classpath)
     * @param tokenRanges units per audit: each reads every node's SSTables of the table, for its share of the ring
     */
    public MedusaSource(S3Client s3, String bucket, Supplier<SSTableScan> scans, int tokenRanges, Duration skewMargin) {
        this.s3 = s3;
        this.bucket = bucket;
        this.scans = scans;
        this.tokenRanges = new TokenSlices(tokenRanges);
        this.skewMargin = skewMargin;
    }

    /** Units of one token range each, read with up to 1 GiB of heap, for at most an hour: tests, the local platform. */
    public static MedusaSource onRuntimeClasspath(BackupBucket bucket) {
        return new MedusaSource(
                bucket.s3(),
                bucket.bucket(),
                () -> SSTableScan.onRuntimeClasspath(Duration.ofHours(1), "1g"),
                1,
                CutoffTimestamp.DEFAULT_CLOCK_SKEW_MARGIN);
    }

    /** What an audit of a dataset's Medusa backups reads, fixed when it is planned. */
    public record Planned(MedusaBackup backup, long cutoffMicros, String metaKey, List<String> unitKeys) {}

    /**
     * The newest complete backup under {@code location} and the audit's units.
     *
     * @throws BackupIntegrityException if no backup is complete, or the newest holds no SSTable of the table
     */
    public Planned plan(BackupLocation location, DatasetSpec spec, Instant now) {
        MedusaBackup backup = bucket(location)
                .latestComplete()
                .orElseThrow(() -> new BackupIntegrityException("no complete Medusa backup under s3://" + bucket + "/"
                        + location.prefix() + ": a backup is complete once every node of its tokenmap.json has written"
                        + " its meta/manifest.json"));
        if (backup.objects(spec.namespace(), spec.table()).isEmpty()) {
            throw new BackupIntegrityException("Medusa backup '" + backup.name() + "' under s3://" + bucket + "/"
                    + location.prefix() + " holds no SSTable of " + spec.namespace() + "." + spec.table()
                    + ": is the dataset's keyspace and table the backed-up cluster's?");
        }
        long cutoff = backup.cutoff(skewMargin).micros();
        if (!backup.started().isBefore(now)) {
            throw new BackupIntegrityException("Medusa backup '" + backup.name() + "' starts at " + backup.started()
                    + ", not before now (" + now + "): the clocks of the cluster and the audit disagree");
        }
        List<String> units = new ArrayList<>(tokenRanges.count());
        for (int i = 0; i < tokenRanges.count(); i++) {
            units.add("tokens:" + tokenRanges.after(i) + ":" + tokenRanges.upTo(i));
        }
        String metaKey = location.prefix() + backup.nodes().get(0).fqdn() + "/" + backup.name() + "/meta/";
        return new Planned(backup, cutoff, metaKey, units);
    }

    /** The backup {@code name} under {@code location}, read again from its metadata. */
    public MedusaBackup read(BackupLocation location, String name) {
        return bucket(location).read(name);
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
            MedusaBackup backup,
            BackupLocation location,
            DatasetSpec spec,
            String unitKey,
            IdentifierSet identifiers,
            Instant asOf,
            CandidateSink sink)
            throws IOException {
        Matcher unit = UNIT.matcher(unitKey);
        if (!unit.matches()) {
            throw new BackupIntegrityException("unit " + unitKey + " is not a token range of a Medusa audit");
        }
        SSTableUnit.TokenRange range =
                new SSTableUnit.TokenRange(Long.parseLong(unit.group(1)), Long.parseLong(unit.group(2)));
        Path work = Files.createTempDirectory("erasure-medusa-unit-");
        try {
            List<Path> directories = download(backup, location, spec, work);
            Path schema = work.resolve("schema.cql");
            String schemaKey =
                    location.prefix() + backup.nodes().get(0).fqdn() + "/" + backup.name() + "/meta/schema.cql";
            copy(schemaKey, schema);
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
            deleteTree(work);
        }
    }

    /** Every node's objects of the table, one folder per node laid out as a data directory is. */
    private List<Path> download(MedusaBackup backup, BackupLocation location, DatasetSpec spec, Path work)
            throws IOException {
        Map<String, Path> folders = new LinkedHashMap<>();
        for (MedusaBackup.Node node : backup.nodes()) {
            for (MedusaBackup.Table table : node.tables()) {
                if (!table.keyspace().equals(spec.namespace()) || !table.table().equals(spec.table())) {
                    continue;
                }
                if (!COMPONENT.matcher(table.columnFamily()).matches()) {
                    throw new BackupIntegrityException("Medusa backup '" + backup.name() + "' names the table folder '"
                            + table.columnFamily() + "' on node " + node.fqdn() + ", which is no folder name");
                }
                Path folder = Files.createDirectories(work.resolve("node-" + folders.size())
                        .resolve(spec.namespace())
                        .resolve(table.columnFamily()));
                folders.put(node.fqdn(), folder);
                String nodePrefix = location.prefix() + node.fqdn() + "/";
                for (MedusaBackup.StoredObject object : table.objects()) {
                    String key = object.key();
                    String name = key.substring(key.lastIndexOf('/') + 1);
                    if (!key.startsWith(nodePrefix) || !COMPONENT.matcher(name).matches()) {
                        throw new BackupIntegrityException("Medusa backup '" + backup.name() + "' lists the object "
                                + key + " for node " + node.fqdn() + ": objects must lie under " + nodePrefix
                                + " and be named as SSTable components");
                    }
                    download(key, folder.resolve(name), object);
                }
            }
        }
        if (folders.isEmpty()) {
            throw new BackupIntegrityException("Medusa backup '" + backup.name() + "' holds no SSTable of "
                    + spec.namespace() + "." + spec.table());
        }
        return List.copyOf(folders.values());
    }

    /** Copies one object to {@code file}, checked against {@code object}'s size and MD5 as it streams. */
    private void download(String key, Path file, MedusaBackup.StoredObject object) throws IOException {
        try (InputStream in = s3.getObject(b -> b.bucket(bucket).key(key));
                OutputStream out = Files.newOutputStream(file)) {
            MedusaMd5.Checked checked = object.checksum().check(in);
            checked.transferTo(out);
            checked.verify();
        } catch (NoSuchKeyException e) {
            throw missing(key, e);
        } catch (SdkException e) {
            throw new IOException("reading s3://" + bucket + "/" + key + " failed: " + e.getMessage(), e);
        }
    }

    /** Copies an object the manifest does not list (Medusa's {@code schema.cql}), which has no MD5 to check. */
    private void copy(String key, Path file) throws IOException {
        try (InputStream in = s3.getObject(b -> b.bucket(bucket).key(key));
                OutputStream out = Files.newOutputStream(file)) {
            in.transferTo(out);
        } catch (NoSuchKeyException e) {
            throw missing(key, e);
        } catch (SdkException e) {
            throw new IOException("reading s3://" + bucket + "/" + key + " failed: " + e.getMessage(), e);
        }
    }

    private BackupIntegrityException missing(String key, NoSuchKeyException e) {
        return new BackupIntegrityException(
                "s3://" + bucket + "/" + key + " is listed by the Medusa backup but"
                        + " does not exist: the backup is damaged or was partly removed",
                e);
    }

    private MedusaBucket bucket(BackupLocation location) {
        return new MedusaBucket(s3, bucket, location.prefix());
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
